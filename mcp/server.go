package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// Server is an MCP server: a name, tools and resources. Register everything
// before serving; a Server then serves any number of connections at once.
type Server struct {
	info     implementation
	infoMeta serverMeta // info, as the _meta of modern results carries it
	opts     Options
	log      *slog.Logger
	logw     *logWriter // the default logger's buffer; nil for Options.Logger
	tools    []*registeredTool
	byName   map[string]*registeredTool
	static   []*registeredResource
	byURI    map[string]*registeredResource
	tmpls    []*registeredTemplate
}

// Options configures a [Server]. The zero value is ready to use.
type Options struct {
	// Instructions tells the client how to use the server; sent in the
	// initialize and server/discover results when not empty.
	Instructions string
	// Logger receives one line per tool error, protocol error and recovered
	// panic. The default writes text lines to stderr, gathered for a few
	// milliseconds under load so that they cost fewer system calls (the
	// server writes them out when it stops serving).
	Logger *slog.Logger
	// MaxLineBytes bounds one incoming message on a stream. A longer line is
	// answered with an invalid-request error and skipped. The default is
	// [DefaultMaxLineBytes].
	MaxLineBytes int
	// ShutdownTimeout bounds how long [Server.Serve] waits for handlers still
	// running when its input ends. The default is 5 seconds.
	ShutdownTimeout time.Duration
	// CacheTTL is the ttlMs that modern list and read results carry: how long
	// a client may reuse them. The default, 0, asks clients not to reuse them.
	CacheTTL time.Duration
	// Observe, if set, is called as each request starts, on the goroutine
	// serving it, with the request's context and what it is (see
	// [RequestInfo]). It returns the context the request runs with: ctx,
	// or a context derived from it (one holding a trace span, say), which
	// the handler and the log lines then see. It may also return a
	// function, which is called once when the request ends, before the
	// response is written, with its [Outcome]: a result, a tool error, a
	// protocol error or a cancellation, with the failure as a Go value and
	// the row of the error table that answered it. Observe is where the
	// program that runs the server sees each failure of a request, to
	// count it, trace it or send it elsewhere: each tool error and
	// protocol error the server logs, each panic it recovers, each request
	// cancelled while its handler ran.
	//
	// A request is a message with a method and an id that the server
	// reads as one: every request it answers with a result or a row of its
	// error table, those refused over HTTP once the body is read
	// included. A message that is not one (a line that is not JSON, a
	// response, a notification, a request with a wrong "jsonrpc" or id,
	// an HTTP request refused before its body is read) is not observed;
	// the log line is what reports the error that answers it. Observe must
	// be quick and safe for concurrent use; left nil, it costs nothing.
	Observe func(ctx context.Context, req RequestInfo) (context.Context, func(Outcome))
}

// DefaultMaxLineBytes is the default bound on one incoming message: 4 MiB.
const DefaultMaxLineBytes = 4 << 20

// implementation is the MCP Implementation object.
type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// NewServer returns a server with the given name and version, as the client
// sees them in serverInfo. opts may be nil.
func NewServer(name, version string, opts *Options) *Server {
	s := &Server{
		info:   implementation{Name: name, Version: version},
		byName: make(map[string]*registeredTool),
		byURI:  make(map[string]*registeredResource),
	}
	s.infoMeta = serverMeta{s.info}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxLineBytes <= 0 {
		s.opts.MaxLineBytes = DefaultMaxLineBytes
	}
	if s.opts.ShutdownTimeout <= 0 {
		s.opts.ShutdownTimeout = 5 * time.Second
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.logw = newLogWriter(os.Stderr, logFlushDelay)
		s.log = slog.New(slog.NewTextHandler(s.logw, nil))
	}
	return s
}

// flushLog writes the log lines still buffered, when the server logs
// through the default logger: when it stops serving, before Main exits,
// and at once after a recovered panic.
func (s *Server) flushLog() {
	if s.logw != nil {
		s.logw.Flush()
	}
}

// connState is the protocol state of one connection: a stream, a
// [Session], a legacy-era HTTP session, or a stateless HTTP request. It
// holds the legacy version negotiated by initialize, if any, the
// transport it came in on, and the requests whose handlers are running,
// by [idKey], so that notifications/cancelled can reach them.
type connState struct {
	mu        sync.Mutex
	version   string        // negotiated legacy version; "" before initialize
	transport TransportKind // what Options.Observe is told
	calls     map[string]*call
	// closeCancels is set for a 2026-07-28 request over HTTP, whose
	// context ends when the client closes the request: that cancels the
	// handler, but the reply is dropped only if the handler returns the
	// cancellation (see request.dropsReply).
	closeCancels bool
}

// legacyVersion returns the negotiated legacy version, or "" before
// initialize.
func (cs *connState) legacyVersion() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.version
}

// request is one request being served: its method and params, and the era
// it is served in.
type request struct {
	id     json.RawMessage // nil for none
	method string
	params *params // never nil
	modern bool
	obs    *observation // nil unless Options.Observe watches the request
	// closeCancels is its connState's; gaveUp is set when its handler
	// returned an error that is context.Canceled.
	closeCancels, gaveUp bool
}

// respond serves one request and returns its response line, or nil for
// none, and the error the response carries, if any, whose row gives an
// HTTP response its status. A request that runs a handler gets no
// response once its context is done, since it was cancelled, unless only
// the client's closing its request ended it (see request.dropsReply). It
// is safe to call concurrently.
func (s *Server) respond(ctx context.Context, cs *connState, m *message) ([]byte, *Error) {
	r, perr := s.classify(cs, m)
	if s.opts.Observe != nil {
		ctx = s.startObserving(ctx, cs, &r, r.params)
	}
	if perr == nil {
		var result any
		result, perr = s.dispatch(ctx, cs, &r)
		if r.dropsReply(ctx) {
			s.cancelled(ctx, &r)
			return nil, nil
		}
		if perr == nil {
			line, err := encodeResponse(m.ID, resultMember, result)
			if err == nil {
				if r.obs != nil {
					r.observedResult(result)
				}
				return line, nil
			}
			perr = errResultUnencodable.withCause(err)
		}
	}
	return s.failRequest(ctx, &r, perr), perr
}

// noParams stands in for absent params.
var noParams = new(params)

// classify decides which era serves m on cs, or returns the error that
// rejects it: modern _meta wins; then a legacy session; "ping" is allowed
// before initialize.
func (s *Server) classify(cs *connState, m *message) (request, *Error) {
	r := request{id: m.ID, method: *m.Method, params: m.Params, closeCancels: cs.closeCancels}
	if r.params == nil {
		r.params = noParams
	}
	if meta := r.params.Meta; meta != nil && meta.ProtocolVersion != nil && r.method != "initialize" {
		v := *meta.ProtocolVersion
		if v != ModernVersion {
			return r, errUnsupportedVersion.error(supportedVersions, v)
		}
		if meta.ClientCapabilities == nil {
			return r, errNoCapabilities.error()
		}
		r.modern = true
		return r, nil
	}
	if cs.legacyVersion() == "" && r.method != "initialize" && r.method != "ping" {
		return r, errNoVersion.error(strings.Join(supportedVersions, ", "))
	}
	return r, nil
}

// dispatch runs the method of r. A method the server does not offer (a
// modern-only method in the legacy era or the reverse, or a list or call
// of something it has none of) is not found.
func (s *Server) dispatch(ctx context.Context, cs *connState, r *request) (any, *Error) {
	switch r.method {
	case "initialize":
		return s.initialize(cs, r)
	case "ping":
		if !r.modern {
			return struct{}{}, nil
		}
	case "server/discover":
		if r.modern {
			return s.discover(r), nil
		}
	case "tools/list":
		if len(s.tools) > 0 {
			return s.listTools(r), nil
		}
	case "tools/call":
		if len(s.tools) > 0 {
			return s.callTool(ctx, r)
		}
	case "resources/list":
		if len(s.static)+len(s.tmpls) > 0 {
			return s.listResources(r), nil
		}
	case "resources/templates/list":
		if len(s.static)+len(s.tmpls) > 0 {
			return s.listTemplates(r), nil
		}
	case "resources/read":
		if len(s.static)+len(s.tmpls) > 0 {
			return s.readResource(ctx, r)
		}
	}
	return nil, errMethodNotFound.error(r.method)
}

// dropsReply reports whether r, served with ctx, gets no reply: its
// handler ran and ctx ended meanwhile, cancelled by the client
// (notifications/cancelled, or the caller of Session.Handle) or the server
// (a session's end, shutdown). Where the client's closing its request is
// what ended ctx (2026-07-28 over HTTP), the reply is dropped only if the
// handler returned the cancellation: a result it returned anyway is
// written, since the client may be reading still (a half-close).
func (r *request) dropsReply(ctx context.Context) bool {
	return ctx.Err() != nil && isHandlerMethod(r.method) && (!r.closeCancels || r.gaveUp)
}

// fail logs a protocol error that answers no decoded request, or a request
// refused before it was read, and returns its response line.
func (s *Server) fail(id json.RawMessage, method string, e *Error) []byte {
	return s.failRequest(context.Background(), &request{id: id, method: method, params: noParams}, e)
}

// failRequest logs the protocol error answering r, at the level of its row
// in errorTable, ends r's observation with it, and returns its response
// line. An error the server made is flushed to the log at once, since the
// process may be about to end.
func (s *Server) failRequest(ctx context.Context, r *request, e *Error) []byte {
	level := e.kind.row().level
	attrs := [5]slog.Attr{slog.String("method", r.method), slog.Int("code", e.Code), slog.String("message", e.Message)}
	n := 3
	switch d := e.Data.(type) {
	case nil:
	case string:
		attrs[n], n = slog.String("data", d), n+1
	case json.RawMessage:
		attrs[n], n = slog.String("data", string(d)), n+1
	default:
		attrs[n], n = slog.Any("data", jsonwire.LogValuer{V: d}), n+1
	}
	if e.cause != nil {
		attrs[n], n = slog.Any("cause", e.cause), n+1
	}
	s.log.LogAttrs(ctx, level, "protocol error", attrs[:n]...)
	if level >= slog.LevelError {
		s.flushLog()
	}
	if r.obs != nil {
		r.finishObserving(Outcome{ProtocolError: e, Err: e.failure()})
	}
	return encodeError(r.id, e)
}

// capabilities is the ServerCapabilities object.
type capabilities struct {
	Tools     *struct{} `json:"tools,omitempty"`
	Resources *struct{} `json:"resources,omitempty"`
}

// capabilities returns what the server offers: tools, resources, or both.
func (s *Server) capabilities() capabilities {
	var c capabilities
	if len(s.tools) > 0 {
		c.Tools = &struct{}{}
	}
	if len(s.static)+len(s.tmpls) > 0 {
		c.Resources = &struct{}{}
	}
	return c
}

// initializeResult is the result of initialize.
type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    capabilities   `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

// initialize negotiates the legacy version for the connection.
func (s *Server) initialize(cs *connState, r *request) (any, *Error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.version != "" {
		return nil, errAlreadyInitialized.error(cs.version)
	}
	cs.version = negotiate(r.params.ProtocolVersion)
	return &initializeResult{
		ProtocolVersion: cs.version,
		Capabilities:    s.capabilities(),
		ServerInfo:      s.info,
		Instructions:    s.opts.Instructions,
	}, nil
}

// resultMeta is what a modern result carries besides its own fields.
type resultMeta struct {
	ResultType string      `json:"resultType,omitempty"`
	Meta       *serverMeta `json:"_meta,omitempty"`
}

// serverMeta is the _meta of a modern result.
type serverMeta struct {
	ServerInfo implementation `json:"io.modelcontextprotocol/serverInfo"`
}

// cacheable is what modern list, read and discover results carry.
type cacheable struct {
	TTLMs      *int64 `json:"ttlMs,omitempty"`
	CacheScope string `json:"cacheScope,omitempty"`
}

// meta returns the result decorations for r's era.
func (s *Server) meta(r *request) resultMeta {
	if !r.modern {
		return resultMeta{}
	}
	return resultMeta{ResultType: "complete", Meta: &s.infoMeta}
}

// cache returns the cache fields for r's era.
func (s *Server) cache(r *request) cacheable {
	if !r.modern {
		return cacheable{}
	}
	ttl := s.opts.CacheTTL.Milliseconds()
	return cacheable{TTLMs: &ttl, CacheScope: "public"}
}

// discoverResult is the result of server/discover.
type discoverResult struct {
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      capabilities `json:"capabilities"`
	Instructions      string       `json:"instructions,omitempty"`
	resultMeta
	cacheable
}

// discover serves server/discover.
func (s *Server) discover(r *request) any {
	return &discoverResult{
		SupportedVersions: supportedVersions,
		Capabilities:      s.capabilities(),
		Instructions:      s.opts.Instructions,
		resultMeta:        s.meta(r),
		cacheable:         s.cache(r),
	}
}
