package mcp

import (
	"fmt"
	"log/slog"
)

// JSON-RPC 2.0 and MCP error codes. Return them in an [Error] instead of
// writing numbers by hand.
const (
	// CodeParseError: the line is not valid JSON.
	CodeParseError = -32700
	// CodeInvalidRequest: valid JSON that is not a valid JSON-RPC request.
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: the method does not exist or is not offered.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: the params are wrong, or name something that does
	// not exist (an unknown tool, a resource that is not there).
	CodeInvalidParams = -32602
	// CodeInternalError: the server failed; the detail stays in its log.
	CodeInternalError = -32603

	// CodeHeaderMismatch (2026-07-28): an HTTP header disagrees with the body.
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability (2026-07-28): the request needs a
	// client capability the client did not declare.
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion (2026-07-28): the request's protocol
	// version is not one the server speaks.
	CodeUnsupportedProtocolVersion = -32022
)

// Error is a protocol error: a JSON-RPC error object. A handler that returns
// one (also wrapped, as found by errors.As) fails the whole request with that
// code, message and data, verbatim; the host sees it, the model does not.
type Error struct {
	// Code is the JSON-RPC error code, such as [CodeInvalidParams].
	Code int `json:"code"`
	// Message is a short description of the error.
	Message string `json:"message"`
	// Data is optional detail, marshalled as JSON. Omitted when nil.
	Data any `json:"data,omitempty"`

	// kind is the row of errorTable the error comes from; the zero kind
	// is a handler's own error.
	kind errKind
	// cause is what the server logs with the error but never sends: the
	// handler failure behind an internal error.
	cause error
}

// Error returns the message followed by the code.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// ResourceNotFoundError is what a resource handler returns when the resource
// it was asked for does not exist. The client receives code
// [CodeInvalidParams] with Message and data {"uri": <requested uri>}, in every
// protocol era (SEP-2164; specifications up to 2025-11-25 said -32002).
type ResourceNotFoundError struct {
	// Message is sent to the client as the error message.
	Message string
}

// Error returns the message.
func (e *ResourceNotFoundError) Error() string { return e.Message }

// ResourceNotFound returns a [ResourceNotFoundError] whose message is
// formatted as by fmt.Sprintf.
func ResourceNotFound(format string, args ...any) error {
	return &ResourceNotFoundError{Message: fmt.Sprintf(format, args...)}
}

// ResourceFailureError is what a resource handler returns for a failure
// it expected that is not "not found": the catalog is being reindexed, say.
// The client receives code [CodeInternalError] with Message and data
// {"uri": <requested uri>}, and the server logs one line at INFO. Any
// other error from a resource handler is a crash: the client gets only
// "Internal error" and the URI, and the log gets the error at ERROR.
type ResourceFailureError struct {
	// Message is sent to the client as the error message.
	Message string
}

// Error returns the message.
func (e *ResourceFailureError) Error() string { return e.Message }

// ResourceFailure returns a [ResourceFailureError] whose message is
// formatted as by fmt.Sprintf.
func ResourceFailure(format string, args ...any) error {
	return &ResourceFailureError{Message: fmt.Sprintf(format, args...)}
}

// InternalError is an error a tool handler marked with [Internal]: its
// text is for whoever runs the server, not for the model.
type InternalError struct {
	// Err is the failure, which the server logs at ERROR.
	Err error
}

// Error returns the text of Err.
func (e *InternalError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *InternalError) Unwrap() error { return e.Err }

// Internal marks err as internal: a tool handler that returns it, wrapped
// or not, fails the call as a panic does. The model reads only the bare
// tool error "Error executing tool <name>", and the log gets err at
// ERROR. Use it for an error whose text may describe the server's
// insides (a driver's SQL, a file path, a host name) or that no model can
// act on. Internal(nil) is nil.
func Internal(err error) error {
	if err == nil {
		return nil
	}
	return &InternalError{Err: err}
}

// ToolError is a tool error that also carries structured content, for the
// programs among a tool's callers: the model reads Text, after "Error
// executing tool <name>: ", and a program reads Structured, sent as the
// result's structuredContent. Structured must fit the tool's output
// schema, as a client may check it even on an error; when it does not,
// the server drops it, logs why at ERROR, and sends the text alone.
type ToolError struct {
	// Text is what the model reads.
	Text string
	// Structured is the error as data, marshalled as JSON.
	Structured any
}

// Error returns Text.
func (e *ToolError) Error() string { return e.Text }

// PanicError is a panic the server recovered from a handler. The client
// gets a bare tool error ("Error executing tool <name>"), or an internal
// error from a resource handler; the value and stack, which may hold what
// no client should see, go to the log and to [Options.Observe] only.
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
