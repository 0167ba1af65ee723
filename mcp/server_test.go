package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// testTimeout bounds every wait in these tests, so a missing reply fails
// instead of hanging.
const testTimeout = 5 * time.Second

// logBuffer collects a test server's log; handlers log concurrently.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the log lines written so far, each a JSON object.
func (l *logBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(l.b.String(), "\n"), "\n")
}

// reset forgets the lines written so far.
func (l *logBuffer) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// newTestServer returns a server that logs JSON lines into the returned
// buffer. opts may be nil.
func newTestServer(opts *Options) (*Server, *logBuffer) {
	logs := new(logBuffer)
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	return NewServer("test", "0.1.0", &o), logs
}

// testConn is a connection to a server running Serve in-process.
type testConn struct {
	t    *testing.T
	in   *io.PipeWriter
	out  chan string
	done chan error
}

// connect starts serving s and returns the client end of the connection.
func connect(t *testing.T, s *Server) *testConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &testConn{t: t, in: inW, out: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		c.done <- s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(c.out)
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			c.out <- line
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// send writes one line to the server.
func (c *testConn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("sending %s: %v", line, err)
	}
}

// recv returns the next line the server writes, without its newline.
func (c *testConn) recv() string {
	c.t.Helper()
	select {
	case line, ok := <-c.out:
		if !ok {
			c.t.Fatal("the server closed the connection")
		}
		return strings.TrimSuffix(line, "\n")
	case <-time.After(testTimeout):
		c.t.Fatal("no reply")
	}
	return ""
}

// call sends a line and returns the reply.
func (c *testConn) call(line string) string {
	c.t.Helper()
	c.send(line)
	return c.recv()
}

// close ends the input and returns what Serve returned, failing if it does
// not return, or if the server writes anything else.
func (c *testConn) close() error {
	c.t.Helper()
	c.in.Close()
	var err error
	select {
	case err = <-c.done:
	case <-time.After(testTimeout):
		c.t.Fatal("Serve did not return after its input ended")
	}
	for line := range c.out {
		c.t.Errorf("unexpected line after the last reply: %s", line)
	}
	return err
}

// wantError checks that line is an error response with id and code, and
// returns the error.
func wantError(t *testing.T, line, id string, code int) *mcptest.Error {
	t.Helper()
	r := mcptest.DecodeReply(t, line)
	if r.Error == nil || string(r.ID) != id || r.Error.Code != code {
		t.Fatalf("reply %s, want error %d for id %s", line, code, id)
	}
	return r.Error
}

type echoArgs struct {
	Text string `json:"text"`
}

// newEchoServer returns a test server with one tool, echo.
func newEchoServer(opts *Options) (*Server, *logBuffer) {
	s, logs := newTestServer(opts)
	AddTool(s, Tool{Name: "echo"}, func(ctx context.Context, a echoArgs) (string, error) {
		if a.Text == "" {
			return "", errors.New("nothing to echo")
		}
		return a.Text, nil
	})
	return s, logs
}

// echoOK is a request the echo server answers with a result.
var echoOK = mcptest.ToolCall(`"ok"`, "echo", `{"text":"hi"}`)

// wantEchoOK checks the reply to echoOK: the session goes on.
func wantEchoOK(t *testing.T, line string) {
	t.Helper()
	if !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":"ok","result":{"content":[{"type":"text","text":"hi"}]`) {
		t.Fatalf("reply %s, want the echo of hi", line)
	}
}

func TestServerLogsEachErrorOnce(t *testing.T) {
	for _, tt := range []struct {
		name, line, msg string
		code            int
	}{
		{"parse error", `{"jsonrpc":`, "protocol error", CodeParseError},
		{"invalid request", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, "protocol error", CodeInvalidRequest},
		{"unknown method", mcptest.Request("1", "nope", ""), "protocol error", CodeMethodNotFound},
		{"no version", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "protocol error", CodeInvalidParams},
		{"unsupported version", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1.0"}}}`, "protocol error", CodeUnsupportedProtocolVersion},
		{"unknown tool", mcptest.ToolCall("1", "nope", "{}"), "protocol error", CodeInvalidParams},
		{"batch refused", `[` + echoOK + `]`, "protocol error", CodeInvalidRequest},
		{"tool error", mcptest.ToolCall("1", "echo", "{}"), "tool error", 0},
		{"schema", mcptest.ToolCall("1", "echo", `{"text":1}`), "tool error", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, logs := newEchoServer(nil)
			c := connect(t, s)
			c.call(tt.line)
			lines := logs.lines()
			if len(lines) != 1 {
				t.Fatalf("%d log lines, want 1: %q", len(lines), lines)
			}
			var entry struct {
				Msg  string
				Code int
			}
			if err := json.Unmarshal([]byte(lines[0]), &entry); err != nil {
				t.Fatalf("log line %s: %v", lines[0], err)
			}
			if entry.Msg != tt.msg || entry.Code != tt.code {
				t.Errorf("log line %s, want msg %q and code %d", lines[0], tt.msg, tt.code)
			}
			wantEchoOK(t, c.call(echoOK))
			if n := len(logs.lines()); n != 1 {
				t.Errorf("%d log lines after a good request, want still 1", n)
			}
			if err := c.close(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

func TestServerEras(t *testing.T) {
	s, _ := newEchoServer(nil)
	c := connect(t, s)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}`
	if r := mcptest.DecodeReply(t, c.call(init)); !strings.Contains(string(r.Result), `"protocolVersion":"`+LatestLegacyVersion+`"`) {
		t.Errorf("initialize at an unknown version: %s, want %s", r.Result, LatestLegacyVersion)
	}
	wantError(t, c.call(init), "1", CodeInvalidRequest)
	// Modern _meta still wins on a legacy connection: served statelessly.
	if r := mcptest.DecodeReply(t, c.call(echoOK)); !strings.Contains(string(r.Result), `"resultType":"complete"`) {
		t.Errorf("modern request on a legacy connection: %s, want a modern result", r.Result)
	}
	legacy := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	if r := mcptest.DecodeReply(t, c.call(legacy)); strings.Contains(string(r.Result), "resultType") {
		t.Errorf("legacy request: %s, want no modern fields", r.Result)
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestHarnessVersion: the harness's modern requests are at the version
// the core calls modern.
func TestHarnessVersion(t *testing.T) {
	if mcptest.Version != ModernVersion {
		t.Errorf("mcptest.Version is %q, ModernVersion %q", mcptest.Version, ModernVersion)
	}
}
