package mcp

import (
	"fmt"
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

	// CodeLegacyResourceNotFound is the resource-not-found code of protocol
	// versions up to 2025-11-25. This server never sends it; clients should
	// still accept it, as package mcp/client's IsResourceNotFound does.
	CodeLegacyResourceNotFound = -32002
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

// StandardMessage returns the message JSON-RPC 2.0 gives a standard code
// ("Parse error", "Invalid Request", "Method not found", "Invalid params",
// "Internal error"), or "" for any other code. The server uses these messages
// for the errors it raises itself, with the detail in data.
func StandardMessage(code int) string {
	switch code {
	case CodeParseError:
		return "Parse error"
	case CodeInvalidRequest:
		return "Invalid Request"
	case CodeMethodNotFound:
		return "Method not found"
	case CodeInvalidParams:
		return "Invalid params"
	case CodeInternalError:
		return "Internal error"
	}
	return ""
}

// newError returns an Error with the standard message for code and detail as
// its data. The client uses it to refuse a server's request; the server's
// own errors come from errorTable.
func newError(code int, detail any) *Error {
	return &Error{Code: code, Message: StandardMessage(code), Data: detail}
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
