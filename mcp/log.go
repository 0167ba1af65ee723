package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
)

// What the server tells whoever runs it of each failure: one log line, on
// its logger (written through a logWriter by default). The failure goes to
// Options.Observe too, with the Outcome of its request (observer.go).

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
// that carries the request id the client knows the call by, keeps it for
// r's Outcome, and returns the bare tool error the client gets.
func (s *Server) toolPanic(ctx context.Context, r *request, tool string, p *PanicError) *CallToolResult {
	s.log.LogAttrs(ctx, errToolPanic.row().level, "panic in tool handler", slog.String("tool", tool), slog.String("id", string(r.id)),
		slog.Any("panic", p.Value), slog.String("stack", string(p.Stack)))
	s.flushLog()
	if r.obs != nil {
		r.toolFailed(errToolPanic.errKind, p)
	}
	return toolErrorResult(errToolPanic.text(tool))
}

// cancelled logs that r's context ended while its handler ran, so that r
// gets no response, and ends r's observation so. The line names
// the cause, when it is not the client's plain cancellation: a session's
// end, the server's shutdown, a deadline.
func (s *Server) cancelled(ctx context.Context, r *request) {
	attrs := requestAttrs(r.method, r.params, r.id)
	if cause := context.Cause(ctx); cause != context.Canceled {
		attrs = append(attrs, slog.String("cause", cause.Error()))
	}
	s.log.LogAttrs(ctx, errRequestCancelled.row().level, errRequestCancelled.row().message, attrs...)
	if r.obs != nil {
		r.finishObserving(Outcome{Cancelled: true, Err: context.Cause(ctx)})
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
