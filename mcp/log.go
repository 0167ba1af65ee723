package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
)

// What the server tells whoever runs it of each failure: one log line, on
// its logger (written through a logWriter by default), and an ErrorEvent
// for Options.OnError.

// ErrorEvent is one failure, as [Options.OnError] sees it: the failure as a
// Go value, the request it ended, and what the client was sent for it.
//
// The server passes an event for each tool error and protocol error it
// sends and each panic it recovers, where it writes the log line that
// reports them, and for each request cancelled while its handler ran. Which
// of the two wire fields is set tells the kinds apart: ToolResult for a tool
// error (a panic in a tool handler included), ProtocolError for a protocol
// error, neither when nothing was sent.
type ErrorEvent struct {
	// Method is the request's method, such as "tools/call"; "" when the
	// message could not be read as a request.
	Method string
	// Name is what the request names: the tool of a tools/call, the URI of a
	// resources/read; "" for other methods.
	Name string
	// ID is the request's id as the client sent it, JSON text such as 2 or
	// "a"; nil when the message has none or it could not be read.
	ID json.RawMessage
	// Err is the failure, for errors.Is and errors.As:
	//
	//   - for a tool error, the error the handler returned (wrapping
	//     context.DeadlineExceeded, say, or an *[InternalError]), an
	//     *[ArgumentsError] when the arguments were rejected before the
	//     handler ran, a *[PanicError], or an error saying how a
	//     structured result does not fit the tool's output schema;
	//   - for a protocol error, the failure it withholds from the client
	//     when there is one (the error of a resource handler, or a
	//     *PanicError, behind an internal error), otherwise the *[Error] sent;
	//   - for a cancelled request, the cause of its context's end
	//     (context.Canceled unless the context says otherwise).
	Err error
	// ToolResult is the tool error result the client was sent, or nil.
	ToolResult *CallToolResult
	// ProtocolError is the JSON-RPC error the client was sent, or nil.
	ProtocolError *Error
}

// failure returns what Err of an event reporting e is: e's withheld
// cause, or e itself.
func (e *Error) failure() error {
	if e.cause != nil {
		return e.cause
	}
	return e
}

// observe passes ev, a failure of r, to Options.OnError, and keeps the
// first for the Outcome of r, if Options.Observe watches it.
func (s *Server) observe(ctx context.Context, r *request, ev ErrorEvent) {
	if r.obs != nil && r.obs.err == nil {
		r.obs.err = ev.Err
	}
	if s.opts.OnError == nil {
		return
	}
	ev.Method, ev.Name, ev.ID = r.method, r.name(), r.id
	s.opts.OnError(ctx, ev)
}

// name returns what r names: a tool, a URI, or nothing.
func (r *request) name() string { return paramsName(r.method, r.params) }

// paramsName returns what a request of method with params p names: a
// tool, a URI, or nothing.
func paramsName(method string, p *params) string {
	switch {
	case method == "tools/call" && p.Name != nil:
		return *p.Name
	case method == "resources/read" && p.URI != nil:
		return *p.URI
	}
	return ""
}

// toolPanic logs the panic p of the tool handler serving r, as one entry
// that carries the request id the client knows the call by, passes it to
// Options.OnError, and returns the bare tool error the client gets.
func (s *Server) toolPanic(ctx context.Context, r *request, tool string, p *PanicError) *CallToolResult {
	s.log.LogAttrs(ctx, errToolPanic.row().level, "panic in tool handler", slog.String("tool", tool), slog.String("id", string(r.id)),
		slog.Any("panic", p.Value), slog.String("stack", string(p.Stack)))
	s.flushLog()
	res := toolErrorResult(errToolPanic.text(tool))
	if r.obs != nil {
		r.obs.toolRow = errToolPanic.errKind
	}
	ev := ErrorEvent{Err: p, ToolResult: res}
	if r.dropsReply(ctx) {
		ev.ToolResult = nil // cancelled: the result is never sent
	}
	s.observe(ctx, r, ev)
	return res
}

// cancelled logs that r's context ended while its handler ran, so that r
// gets no response, and passes that to Options.OnError. The line names
// the cause, when it is not the client's plain cancellation: a session's
// end, the server's shutdown, a deadline.
func (s *Server) cancelled(ctx context.Context, r *request) {
	attrs := requestAttrs(r.method, r.params, r.id)
	if cause := context.Cause(ctx); cause != context.Canceled {
		attrs = append(attrs, slog.String("cause", cause.Error()))
	}
	s.log.LogAttrs(ctx, errRequestCancelled.row().level, errRequestCancelled.row().message, attrs...)
	s.observe(ctx, r, ErrorEvent{Err: context.Cause(ctx)})
	if r.obs != nil {
		r.finishObserving(Outcome{Cancelled: true})
	}
}

// requestAttrs are the attributes of a log line about a request of
// method, with params p and id: the method, the tool or URI it names, and
// the id.
func requestAttrs(method string, p *params, id json.RawMessage) []slog.Attr {
	attrs := make([]slog.Attr, 0, 4)
	attrs = append(attrs, slog.String("method", method))
	if name := paramsName(method, p); name != "" {
		key := "tool"
		if method == "resources/read" {
			key = "uri"
		}
		attrs = append(attrs, slog.String(key, name))
	}
	return append(attrs, slog.String("id", string(id)))
}

// closedBeforeReply logs, at the level of its row, that the client had
// closed its side of the connection before the reply to the request of
// method, with params p and id, was written: the write was tried, and may
// have reached the client (a half-close) or not.
func (s *Server) closedBeforeReply(ctx context.Context, method string, p *params, id json.RawMessage) {
	row := errClientClosed.row()
	s.log.LogAttrs(ctx, row.level, row.message, requestAttrs(method, p, id)...)
}
