package mcp

import (
	"context"
	"encoding/json"
	"time"
)

// RequestInfo is a request as [Options.Observe] sees it when it starts.
type RequestInfo struct {
	// Method is the request's method, such as "tools/call".
	Method string
	// ID is the request's id as the client sent it, JSON text such as 2 or
	// "a".
	ID json.RawMessage
	// Name is what the request names: the tool of a tools/call, the URI of a
	// resources/read; "" for other methods.
	Name string
	// Modern reports the modern era: the request carries its protocol
	// version in params._meta and is served statelessly. It is false in the
	// legacy era, and for a request refused before its era is known.
	Modern bool
	// ProtocolVersion is the version the request is served at:
	// [ModernVersion] in the modern era, the version initialize negotiated
	// in the legacy era, or "" before initialize.
	ProtocolVersion string
	// Transport is how the request came in.
	Transport TransportKind
	// Traceparent and Tracestate are the W3C Trace Context the client sent
	// in params._meta["traceparent"] and ["tracestate"], as it sent them
	// (the server does not check them); "" when absent or not a string.
	Traceparent, Tracestate string
}

// TransportKind is how a request came in, as [RequestInfo] names it.
type TransportKind string

// The transports.
const (
	// TransportStdio is a stream of lines: [Server.Serve], and [Main]
	// without -http.
	TransportStdio TransportKind = "stdio"
	// TransportHTTP is Streamable HTTP: [Server.HTTPHandler] and
	// [Server.ServeStreamableHTTP].
	TransportHTTP TransportKind = "http"
	// TransportDirect is messages handed to [Session.Handle], as package
	// mcp/client's InProcess hands them.
	TransportDirect TransportKind = "direct"
)

// Outcome is how a request ended, as the function [Options.Observe]
// returns sees it. Which fields are set tells the kinds apart:
//
//   - a result: neither ProtocolError nor Cancelled (a tools/call result
//     is ToolResult, whose IsError is false);
//   - a tool error: ToolResult, with IsError set (a panic in a tool handler
//     included, with a *[PanicError] in Err);
//   - a protocol error: ProtocolError;
//   - a cancellation: Cancelled, with nothing sent.
type Outcome struct {
	// ToolResult is the result of a tools/call, a tool error or not; nil
	// for other methods and when none was sent.
	ToolResult *CallToolResult
	// ProtocolError is the JSON-RPC error the client was sent, or nil.
	ProtocolError *Error
	// Cancelled reports a request whose context ended while its handler
	// ran, which got no response: notifications/cancelled, a legacy HTTP
	// session's end or the server's shutdown, or a 2026-07-28 HTTP request
	// closed by the client whose handler returned the cancellation. A
	// legacy-era handler whose client closed its request runs on, and its
	// outcome is what it returns; so is that of a 2026-07-28 handler that
	// returns a result although its request was closed, which is written.
	// A cancellation that arrives after the handler returned, but before
	// the response is written, withholds the response all the same; the
	// outcome is then the one the server made.
	Cancelled bool
	// Err is the failure as a Go value, for errors.Is and errors.As; nil
	// for a result. The first failure of the request is the one given:
	//
	//   - for a tool error, the error the handler returned (wrapping
	//     context.DeadlineExceeded, say, or an *[InternalError]), an
	//     *[ArgumentsError] when the arguments were rejected before the
	//     handler ran, a *[PanicError], or an error saying how a
	//     structured result does not fit the tool's output schema;
	//   - for a protocol error, the failure it withholds from the client
	//     when there is one (the error of a resource handler, or a
	//     *PanicError, behind an internal error), otherwise the *[Error] sent;
	//   - for a cancellation, the handler's failure if it failed first (a
	//     panic, say), otherwise the cause of its context's end
	//     (context.Canceled unless the context says otherwise).
	Err error
	// Row is the row of the server's error table that answered the
	// request, by the name the guide's page "Every error the server sends"
	// gives it: "tool-error", "unknown-tool", "handler-error" for an *[Error]
	// a handler returned. It is "" for a result and a cancellation.
	Row string
	// Duration is the time from the call of Observe to the end.
	Duration time.Duration
}

// observation is the state of an observed request: the function that
// ends it, when it began, the first failure seen, and the row of the tool
// error it got, if any.
type observation struct {
	end     func(Outcome)
	began   time.Time
	err     error
	toolRow errKind // the row of a tool error: errToolError unless the server says otherwise
}

// startObserving calls Options.Observe for r, which came in on cs with
// params p (r's, or those of a request refused before it was served), and
// returns the context r runs with. r ends observed when Observe returned a
// function to end it.
func (s *Server) startObserving(ctx context.Context, cs *connState, r *request, p *params) context.Context {
	info := RequestInfo{Method: r.method, ID: r.id, Name: paramsName(r.method, p), Modern: r.modern, Transport: cs.transport}
	if r.modern {
		info.ProtocolVersion = ModernVersion
	} else {
		info.ProtocolVersion = cs.legacyVersion()
	}
	if meta := p.Meta; meta != nil {
		info.Traceparent, info.Tracestate = string(meta.Traceparent), string(meta.Tracestate)
	}
	began := time.Now()
	octx, end := s.opts.Observe(ctx, info)
	if octx != nil {
		ctx = octx
	}
	if end != nil {
		r.obs = &observation{end: end, began: began, toolRow: errToolError.errKind}
	}
	return ctx
}

// toolFailed keeps err, the failure of r's tool, of row k, for the
// Outcome of r, which is observed, unless a failure came first.
func (r *request) toolFailed(k errKind, err error) {
	if o := r.obs; o.err == nil {
		o.err, o.toolRow = err, k
	}
}

// finishObserving ends the observation of r with out, whose Err (unless a
// failure came first), Row and Duration it fills in.
func (r *request) finishObserving(out Outcome) {
	o := r.obs
	if o.err != nil {
		out.Err = o.err
	}
	switch {
	case out.ProtocolError != nil:
		out.Row = out.ProtocolError.kind.row().name
	case out.ToolResult != nil && out.ToolResult.IsError:
		out.Row = o.toolRow.row().name
	}
	out.Duration = time.Since(o.began)
	o.end(out)
}

// failure returns what Outcome.Err of a request answered with e is: e's
// withheld cause, or e itself.
func (e *Error) failure() error {
	if e.cause != nil {
		return e.cause
	}
	return e
}

// observedResult ends the observation of r, which succeeded with result.
func (r *request) observedResult(result any) {
	var out Outcome
	if w, ok := result.(*callToolWire); ok {
		out.ToolResult = w.CallToolResult
	}
	r.finishObserving(out)
}
