package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"time"
)

// What the server tells whoever runs it: one log line for each failure,
// through a buffer that gathers lines (logWriter), and an ErrorEvent for
// Options.OnError.

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

// PanicError is a panic the server recovered from a handler. The client
// gets a bare tool error ("Error executing tool <name>"), or an internal
// error from a resource handler; the value and stack, which may hold what
// no client should see, go to the log and to [Options.OnError] only.
type PanicError struct {
	// Value is what the handler passed to panic.
	Value any
	// Stack is the panicking goroutine's stack, as [runtime/debug.Stack]
	// formats it.
	Stack []byte
}

// Error returns "panic: " and the value.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the value if it is an error (a [runtime.Error] such as an
// index out of range, say), so that errors.As sees through the panic.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// LogValue logs the value and the stack, as one value.
func (e *PanicError) LogValue() slog.Value {
	return slog.StringValue(e.Error() + "\n" + string(e.Stack))
}

// ArgumentsError is arguments a tool rejected before its handler ran: they
// fail its input schema, or do not fit its Go type (a number too large for
// its field, say). The client gets a tool error whose text, after "Error
// executing tool <name>: ", is Message.
type ArgumentsError struct {
	// Message names each failing field by JSON pointer, and the problem.
	Message string
}

// Error returns the message.
func (e *ArgumentsError) Error() string { return e.Message }

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

// logWriter is a buffer in front of the default logger's writer, stderr.
// A server under load logs a line per failed call; written one by one,
// each line would cost a system call, as much as the call's own reply. So
// lines are gathered and written together, at most a delay after the
// first of them, or at once when logWriterSize bytes are waiting. The
// server flushes it when it stops serving and before Main exits, so that
// no line is lost (see Server.flushLog).
type logWriter struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte
	delay   time.Duration // from the first line buffered to the write
	pending bool          // the timer is armed
	timer   *time.Timer   // flushes the buffer
	err     error         // of the last write to w
}

// The bounds on how long and how much a logWriter holds by default.
const (
	logFlushDelay = 5 * time.Millisecond
	logWriterSize = 32 << 10
)

// never is a timer duration that does not elapse.
const never = time.Duration(math.MaxInt64)

// newLogWriter returns a logWriter writing to w at most delay after a line
// is written.
func newLogWriter(w io.Writer, delay time.Duration) *logWriter {
	l := &logWriter{w: w, delay: delay}
	l.timer = time.AfterFunc(never, l.Flush)
	return l
}

// Write adds the line p to the buffer. It reports the error of an earlier
// write that failed, if any, as a line is written later than it is logged.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	switch {
	case len(l.buf) >= logWriterSize:
		l.flush()
	case !l.pending:
		l.pending = true
		l.timer.Reset(l.delay)
	}
	return len(p), l.err
}

// Flush writes the lines waiting in the buffer.
func (l *logWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush()
}

// flush writes the buffer; l.mu is held.
func (l *logWriter) flush() {
	if l.pending {
		l.timer.Stop()
		l.pending = false
	}
	if len(l.buf) == 0 {
		return
	}
	_, l.err = l.w.Write(l.buf)
	if cap(l.buf) > 4*logWriterSize { // after a burst of long lines
		l.buf = nil
	}
	l.buf = l.buf[:0]
}
