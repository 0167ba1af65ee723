// Package client is an MCP client, beside the server of package mcp as
// net/http/httptest sits beside net/http: what the guide's examples, tests
// and the mcpc command use to talk to a server.
//
// [Connect] opens a [Conn] over a [Transport]: a command's stdio
// ([Command]), an HTTP endpoint ([HTTP]), or an [mcp.Server] in the same
// process ([InProcess]). A Conn shows each failure as a caller sees it: a
// tool error is an [mcp.CallToolResult] with IsError set, a protocol error
// is a Go error holding an *[mcp.Error].
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/mcpbookshop/guide/mcp"
)

// Conn is a connection to one MCP server, made by [Connect]. It lists and
// calls the server's tools and reads its resources. A Conn is safe for
// concurrent use; each call is matched to its response by id.
//
// What a call returns tells the three outcomes apart:
//
//   - a result: the call worked;
//   - an [mcp.CallToolResult] whose IsError is true: a tool error, which the
//     model reads (the call itself succeeded, so the error is nil);
//   - an error from which errors.As gives an *[mcp.Error]: a protocol error,
//     with the code, message and data the server sent.
//
// A call whose context ends first returns the context's error
// (context.DeadlineExceeded or context.Canceled), never wrapped in an
// *mcp.Error: the server sent nothing; the transport tells it the call is
// cancelled. Any other error means the connection failed.
type Conn struct {
	t       Transport
	modern  bool
	version string
	trace   func(ctx context.Context) (traceparent, tracestate string)
	lastID  atomic.Int64
}

// Era is the protocol era a [Conn] speaks.
type Era int

const (
	// EraAuto probes the server with server/discover and falls back to the
	// legacy handshake on any error that is not a modern protocol error, or
	// on no answer within Options.ProbeTimeout, as the specification
	// asks of clients that speak both eras.
	EraAuto Era = iota
	// EraModern sends every request statelessly, with the protocol version
	// and client capabilities in its _meta, and no handshake.
	EraModern
	// EraLegacy opens the connection with initialize and
	// notifications/initialized, and sends requests without _meta.
	EraLegacy
)

var eraNames = [...]string{EraAuto: "auto", EraModern: "modern", EraLegacy: "legacy"}

// String returns "auto", "modern" or "legacy".
func (e Era) String() string {
	if e < 0 || int(e) >= len(eraNames) {
		return fmt.Sprintf("Era(%d)", int(e))
	}
	return eraNames[e]
}

// MarshalText returns the era's name.
func (e Era) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText sets the era from its name, so that an Era can be a flag
// (see flag.TextVar).
func (e *Era) UnmarshalText(text []byte) error {
	i := slices.Index(eraNames[:], string(text))
	if i < 0 {
		return fmt.Errorf("unknown era %q: want auto, modern or legacy", text)
	}
	*e = Era(i)
	return nil
}

// Options configures a [Conn]. The zero value is ready to use.
type Options struct {
	// Era picks the protocol era. The default, [EraAuto], probes.
	Era Era
	// Name and Version identify the client in the legacy handshake's
	// clientInfo. They default to [DefaultName] and [DefaultVersion].
	Name, Version string
	// ProbeTimeout bounds the wait for the answer to server/discover under
	// EraAuto; a server silent for that long is taken to be legacy. The
	// default is [DefaultProbeTimeout].
	ProbeTimeout time.Duration
	// TraceContext, if set, gives the W3C Trace Context of a call from its
	// context: the client sends traceparent and tracestate in the params._meta
	// of the request, each when it is not empty, in either era. A tracer
	// sets it so that the server's spans join the caller's trace (the
	// server's [mcp.Options.Observe] sees them in [mcp.RequestInfo]).
	TraceContext func(ctx context.Context) (traceparent, tracestate string)
}

// Defaults of [Options].
const (
	// DefaultName is the client's name in clientInfo.
	DefaultName = "mcpbookshop-client"
	// DefaultVersion is the client's version in clientInfo.
	DefaultVersion = "1.0.0"
	// DefaultProbeTimeout bounds the wait for the answer to server/discover.
	DefaultProbeTimeout = 5 * time.Second
)

// Connect opens a client connection over t. Unless opts pins an era, it
// probes the server to choose one (see [EraAuto]). If Connect fails, it
// closes t. opts may be nil.
func Connect(ctx context.Context, t Transport, opts *Options) (*Conn, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = DefaultProbeTimeout
	}
	c := &Conn{t: t, trace: o.TraceContext}
	var err error
	switch o.Era {
	case EraAuto:
		err = c.probe(ctx, &o)
	case EraModern:
		c.modern, c.version = true, mcp.ModernVersion
	case EraLegacy:
		err = c.initialize(ctx, &o)
	default:
		err = fmt.Errorf("mcp: unknown era %v", o.Era)
	}
	if err != nil {
		t.Close()
		return nil, err
	}
	return c, nil
}

// probe sends server/discover and keeps the modern era if it succeeds or
// fails with a modern error; otherwise it falls back to the handshake.
func (c *Conn) probe(ctx context.Context, o *Options) error {
	pctx, cancel := context.WithTimeout(ctx, o.ProbeTimeout)
	defer cancel()
	c.modern, c.version = true, mcp.ModernVersion
	res, err := c.request(pctx, "server/discover", nil)
	if err == nil {
		if offersModern(res) {
			return nil
		}
	} else {
		var perr *mcp.Error
		var herr *HTTPError // a legacy HTTP server that does not know the method
		silent := ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)
		switch {
		case errors.As(err, &perr) && isModernCode(perr.Code):
			return err // a modern server that refuses this client: no fallback
		case perr == nil && !silent && !errors.As(err, &herr):
			return err // the connection failed
		}
	}
	c.modern, c.version = false, ""
	return c.initialize(ctx, o)
}

// offersModern reports whether a server/discover result lists the modern
// version among the supported ones (a server may answer server/discover and
// still serve only the handshake, as a stateful HTTP server of the official
// Go SDK does). A result that lists no versions is taken at its word.
func offersModern(res json.RawMessage) bool {
	var d struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	return json.Unmarshal(res, &d) != nil || d.SupportedVersions == nil || slices.Contains(d.SupportedVersions, mcp.ModernVersion)
}

// isModernCode reports whether code is one only modern servers send.
func isModernCode(code int) bool {
	return code == mcp.CodeHeaderMismatch || code == mcp.CodeMissingRequiredClientCapability ||
		code == mcp.CodeUnsupportedProtocolVersion
}

// initialize performs the legacy handshake.
func (c *Conn) initialize(ctx context.Context, o *Options) error {
	res, err := c.request(ctx, "initialize", &clientParams{
		ProtocolVersion: mcp.LatestLegacyVersion,
		Capabilities:    &struct{}{},
		ClientInfo:      &clientInfo{Name: o.Name, Version: o.Version},
	})
	if err != nil {
		return err
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := decodeResult("initialize", res, &r); err != nil {
		return err
	}
	if !slices.Contains(mcp.LegacyVersions(), r.ProtocolVersion) {
		return fmt.Errorf("mcp: the server answered initialize with protocol version %q, which this client does not speak", r.ProtocolVersion)
	}
	c.version = r.ProtocolVersion
	return c.notify(ctx, "notifications/initialized")
}

// ProtocolVersion returns the protocol version the client speaks to the
// server: [mcp.ModernVersion], or the legacy version the handshake negotiated.
func (c *Conn) ProtocolVersion() string { return c.version }

// Close closes the connection (see [Transport]).
func (c *Conn) Close() error { return c.t.Close() }

// ListTools returns the server's tools, following every page.
func (c *Conn) ListTools(ctx context.Context) ([]*mcp.ToolInfo, error) {
	p, err := c.list(ctx, "tools/list")
	return p.Tools, err
}

// ListResources returns the server's resources with fixed URIs, following
// every page.
func (c *Conn) ListResources(ctx context.Context) ([]*mcp.Resource, error) {
	p, err := c.list(ctx, "resources/list")
	return p.Resources, err
}

// ListResourceTemplates returns the server's resource templates, following
// every page.
func (c *Conn) ListResourceTemplates(ctx context.Context) ([]*mcp.ResourceTemplate, error) {
	p, err := c.list(ctx, "resources/templates/list")
	return p.ResourceTemplates, err
}

// CallTool calls the tool name with args, which may be any value that
// marshals to a JSON object, or nil for none. A tool error is a result
// whose IsError is true, with a nil error.
func (c *Conn) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	res, err := c.request(ctx, "tools/call", &clientParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	r := new(mcp.CallToolResult)
	if err := decodeResult("tools/call", res, r); err != nil {
		return nil, err
	}
	return r, nil
}

// ReadResource reads the resource at uri. When it does not exist, the error
// satisfies [IsResourceNotFound].
func (c *Conn) ReadResource(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
	res, err := c.request(ctx, "resources/read", &clientParams{URI: uri})
	if err != nil {
		return nil, err
	}
	var r struct {
		Contents []mcp.ResourceContents `json:"contents"`
	}
	if err := decodeResult("resources/read", res, &r); err != nil {
		return nil, err
	}
	return r.Contents, nil
}

// CodeLegacyResourceNotFound is the resource-not-found code of the protocol
// versions up to 2025-11-25. Servers that follow SEP-2164, as package mcp
// does, send [mcp.CodeInvalidParams] instead, in every version; a client
// should still accept it, as [IsResourceNotFound] does.
const CodeLegacyResourceNotFound = -32002

// IsResourceNotFound reports whether err is a protocol error saying that a
// resource does not exist: code [mcp.CodeInvalidParams] with the URI in
// data.uri, as servers send it since SEP-2164, or the older
// [CodeLegacyResourceNotFound].
func IsResourceNotFound(err error) bool {
	var e *mcp.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case CodeLegacyResourceNotFound:
		return true
	case mcp.CodeInvalidParams:
		data, _ := e.Data.(map[string]any)
		_, ok := data["uri"].(string)
		return ok
	}
	return false
}

// listPage is one page of any of the list methods.
type listPage struct {
	Tools             []*mcp.ToolInfo         `json:"tools"`
	Resources         []*mcp.Resource         `json:"resources"`
	ResourceTemplates []*mcp.ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string                  `json:"nextCursor"`
}

// list calls a list method page after page and gathers the items.
func (c *Conn) list(ctx context.Context, method string) (*listPage, error) {
	all := new(listPage)
	var p *clientParams
	for {
		res, err := c.request(ctx, method, p)
		if err != nil {
			return all, err
		}
		var page listPage
		if err := decodeResult(method, res, &page); err != nil {
			return all, err
		}
		all.Tools = append(all.Tools, page.Tools...)
		all.Resources = append(all.Resources, page.Resources...)
		all.ResourceTemplates = append(all.ResourceTemplates, page.ResourceTemplates...)
		if page.NextCursor == "" {
			return all, nil
		}
		p = &clientParams{Cursor: page.NextCursor}
	}
}

// clientMessage is a request or notification the client sends.
type clientMessage struct {
	JSONRPC string        `json:"jsonrpc"`
	ID      int64         `json:"id,omitempty"`
	Method  string        `json:"method"`
	Params  *clientParams `json:"params,omitempty"`
}

// clientParams is the union of the params the client sends.
type clientParams struct {
	Meta *clientMeta `json:"_meta,omitempty"`

	// initialize
	ProtocolVersion string      `json:"protocolVersion,omitempty"`
	Capabilities    *struct{}   `json:"capabilities,omitempty"`
	ClientInfo      *clientInfo `json:"clientInfo,omitempty"`
	// list methods
	Cursor string `json:"cursor,omitempty"`
	// tools/call
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
	// resources/read
	URI string `json:"uri,omitempty"`
	// notifications/cancelled
	RequestID int64  `json:"requestId,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// clientMeta is the _meta of a request: the protocol version and client
// capabilities of a modern one, and the trace context of either era.
type clientMeta struct {
	ProtocolVersion    string    `json:"io.modelcontextprotocol/protocolVersion,omitempty"`
	ClientCapabilities *struct{} `json:"io.modelcontextprotocol/clientCapabilities,omitempty"`
	Traceparent        string    `json:"traceparent,omitempty"`
	Tracestate         string    `json:"tracestate,omitempty"`
}

var modernClientMeta = &clientMeta{ProtocolVersion: mcp.ModernVersion, ClientCapabilities: &struct{}{}}

// clientInfo is the clientInfo of initialize.
type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// request sends a request in the client's era and returns its result, or
// the protocol error as an *mcp.Error. Responses and results are decoded
// with the encoding/json-compatible engine of go-json-experiment/json
// (jsonv1), as the server decodes requests, which allocates less
// (BenchmarkCallTool).
func (c *Conn) request(ctx context.Context, method string, p *clientParams) (json.RawMessage, error) {
	id := c.lastID.Add(1)
	m, err := c.outgoing(ctx, id, method, p)
	if err != nil {
		return nil, err
	}
	line, err := c.t.Call(ctx, m)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *mcp.Error      `json:"error"`
	}
	if err := jsonv1.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("mcp: %s: the response is not valid JSON-RPC: %v", method, err)
	}
	switch {
	case resp.Error != nil:
		return nil, resp.Error
	case resp.Result == nil:
		return nil, fmt.Errorf("mcp: %s: the response has neither a result nor an error", method)
	}
	return resp.Result, nil
}

// notify sends a notification in the client's era.
func (c *Conn) notify(ctx context.Context, method string) error {
	m, err := c.outgoing(ctx, 0, method, nil)
	if err != nil {
		return err
	}
	return c.t.Notify(ctx, m)
}

// outgoing encodes a message sent with ctx, adding its _meta.
func (c *Conn) outgoing(ctx context.Context, id int64, method string, p *clientParams) (*Outgoing, error) {
	if meta := c.meta(ctx); meta != nil {
		if p == nil {
			p = new(clientParams)
		}
		p.Meta = meta
	}
	m := &Outgoing{ID: id, Method: method, Version: c.version}
	switch method {
	case "tools/call":
		m.Name = p.Name
	case "resources/read":
		m.Name = p.URI
	}
	var err error
	m.Line, err = json.Marshal(&clientMessage{JSONRPC: "2.0", ID: id, Method: method, Params: p})
	if err != nil {
		return nil, fmt.Errorf("mcp: encoding the %s request: %w", method, err)
	}
	return m, nil
}

// meta returns the _meta of a message sent with ctx: the modern keys in
// the modern era, and the trace context Options.TraceContext gives; nil
// for none.
func (c *Conn) meta(ctx context.Context) *clientMeta {
	var tp, ts string
	if c.trace != nil {
		tp, ts = c.trace(ctx)
	}
	switch {
	case tp == "" && ts == "" && c.modern:
		return modernClientMeta
	case tp == "" && ts == "":
		return nil
	}
	m := &clientMeta{Traceparent: tp, Tracestate: ts}
	if c.modern {
		m.ProtocolVersion, m.ClientCapabilities = modernClientMeta.ProtocolVersion, modernClientMeta.ClientCapabilities
	}
	return m
}

// cancelledLine returns the notifications/cancelled message that tells a
// server the request id is cancelled, for reason.
func cancelledLine(id int64, reason string) ([]byte, error) {
	return json.Marshal(&clientMessage{JSONRPC: "2.0", Method: "notifications/cancelled",
		Params: &clientParams{RequestID: id, Reason: reason}})
}

// decodeResult decodes the result of method into v.
func decodeResult(method string, res json.RawMessage, v any) error {
	if err := jsonv1.Unmarshal(res, v); err != nil {
		return fmt.Errorf("mcp: %s: unexpected result: %v", method, err)
	}
	return nil
}
