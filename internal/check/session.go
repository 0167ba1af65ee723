package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/mcpbookshop/guide/mcp"
)

// transport carries a session's messages to the server: over stdio
// (stdioTransport) or Streamable HTTP (httpTransport).
type transport interface {
	// request sends one request of the check's own (discovery, the
	// handshake) and returns its reply, waiting at most wait.
	request(ctx context.Context, s *session, msg []byte, method, name string) ([]byte, error)
	// notify sends a notification.
	notify(ctx context.Context, s *session, msg []byte, method string) error
	// exchange sends a probe's messages, then what settles whether a
	// reply will come, and returns the answer.
	exchange(ctx context.Context, s *session, p *Probe) *Answer
	// fresh returns a transport of its own connection to the same server.
	fresh() transport
	// close ends the connection; a server process is stopped and reaped.
	close()
	// name says what it talks to: "stdio" or "HTTP".
	name() string
}

// session is the check's conversation with a server in one era: the
// modern one, each request carrying its version in _meta, or a legacy
// one, opened by initialize.
type session struct {
	cfg     *Config
	t       transport
	modern  bool
	version string // the version spoken: mcp.ModernVersion or the one negotiated
	lastID  int
}

// ErrUnreachable is wrapped by the error of a check that could not start
// the server or reach it.
var ErrUnreachable = errors.New("the server could not be reached")

// errNoReply says that a request of the check's own got no reply, though
// the server answered the requests sent after it.
var errNoReply = errors.New("no reply")

// id returns the next request id.
func (s *session) id() int {
	s.lastID++
	return s.lastID
}

// another reports whether id is that of a request the session sent
// before, other than p's own: a reply with it is late, to a request the
// check gave up on (it was cancelled, or it was owed no reply), and it
// answers nothing else. A probe with no id that can be read is answered
// with the id null, never with the id of another request.
func (s *session) another(p *Probe, id string) bool {
	n, err := strconv.Atoi(id)
	return err == nil && strconv.Itoa(n) == id && n >= 1 && n <= s.lastID && id != p.ID && !slices.Contains(p.Inner, id)
}

// msg returns a request (or, with id nil, a notification) of the session,
// its version and client capabilities in _meta when it is modern.
func (s *session) msg(id any, method string, params map[string]any) []byte {
	return s.msgAt(s.version, id, method, params)
}

// msgAt is msg at the given version.
func (s *session) msgAt(version string, id any, method string, params map[string]any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		m["id"] = id
	}
	if s.modern {
		if params == nil {
			params = map[string]any{}
		}
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    version,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "mcpc-check", "version": "1"},
		}
	}
	if params != nil {
		m["params"] = params
	}
	return encode(m)
}

// followUp returns a request that any server of the era answers at once,
// sent after a probe to settle whether the probe's reply will come.
func (s *session) followUp() (msg []byte, method string, id string) {
	n := s.id()
	method = "ping"
	if s.modern {
		method = "server/discover"
	}
	return s.msg(n, method, nil), method, strconv.Itoa(n)
}

// call sends a request of the check's own and returns its result, or the
// protocol error that answered it.
func (s *session) call(ctx context.Context, method, name string, params map[string]any) (json.RawMessage, error) {
	reply, err := s.t.request(ctx, s, s.msg(s.id(), method, params), method, name)
	if err != nil {
		return nil, err
	}
	var r struct {
		Result json.RawMessage
		Error  *mcp.Error
	}
	if err := json.Unmarshal(reply, &r); err != nil {
		return nil, fmt.Errorf("%s: the reply does not decode: %v", method, err)
	}
	if r.Error != nil {
		return nil, r.Error
	}
	return r.Result, nil
}

// open starts the session: for a modern one it asks server/discover
// whether the server speaks 2026-07-28; a legacy one is opened with
// initialize. It reports false when the server does not speak the era.
func (s *session) open(ctx context.Context) (bool, error) {
	if s.modern {
		s.version = mcp.ModernVersion
		res, err := s.call(ctx, "server/discover", "", nil)
		var perr *mcp.Error
		if errors.As(err, &perr) || errors.Is(err, errNoReply) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		var d struct{ SupportedVersions []string }
		json.Unmarshal(res, &d)
		for _, v := range d.SupportedVersions {
			if v == mcp.ModernVersion {
				return true, nil
			}
		}
		return false, nil
	}
	s.version = ""
	res, err := s.call(ctx, "initialize", "", initParams(mcp.LatestLegacyVersion))
	var perr *mcp.Error
	if errors.As(err, &perr) || errors.Is(err, errNoReply) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var r struct{ ProtocolVersion string }
	if json.Unmarshal(res, &r) != nil || r.ProtocolVersion == "" {
		return false, nil
	}
	s.version = r.ProtocolVersion
	return true, s.t.notify(ctx, s, s.msg(nil, "notifications/initialized", nil), "notifications/initialized")
}

// initParams returns the params of an initialize asking for version.
func initParams(version string) map[string]any {
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcpc-check", "version": "1"},
	}
}
