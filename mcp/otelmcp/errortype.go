package otelmcp

import (
	"context"
	"errors"
	"strconv"

	"github.com/mcpbookshop/guide/mcp"
)

// The values of error.type that are not a JSON-RPC error code.
const (
	// ErrorTypeToolError is the error.type of a tools/call answered with a
	// CallToolResult whose isError is set, as the conventions spell it.
	ErrorTypeToolError = "tool_error"

	// ErrorTypeCancelled is the error.type of a request cancelled while
	// its handler ran, which got no response: by notifications/cancelled,
	// a legacy session's end, the server's shutdown, or, in the 2026-07-28
	// era, the client closing its HTTP request (when the handler returns
	// the cancellation). In a legacy session a closed request cancels
	// nothing: its handler runs on, and its span records what it returns.
	//
	// The conventions name no value for it: their rule, the JSON-RPC error
	// code as a string, needs a response, and a cancelled request gets none (the MCP specification has the receiver
	// send nothing). Nor is there a code to borrow: MCP defines none for a
	// cancellation, and -32800, the RequestCancelled of the Language Server
	// Protocol, would claim an error was sent that never was. So it is a
	// custom value, as the registry of error.type allows, low in
	// cardinality like "tool_error", and spelled as MCP spells the
	// notification, notifications/cancelled.
	ErrorTypeCancelled = "cancelled"

	// ErrorTypeTimeout is the error.type of a request whose context reached
	// its deadline while its handler ran (a deadline an HTTP middleware or
	// the program that calls [mcp.Session.Handle] set): not the client's
	// choice, so not ErrorTypeCancelled. The value is the one the
	// error.type registry gives as its first example.
	ErrorTypeTimeout = "timeout"
)

// failure is how a request failed, as its span and its duration record
// it: error.type, rpc.response.status_code (a JSON-RPC error's code),
// and the description of the span's status. A request that succeeded
// has no errorType.
type failure struct {
	errorType, statusCode, description string
}

// classify returns how out failed, if it did.
func classify(out mcp.Outcome) failure {
	switch {
	case out.ProtocolError != nil:
		code := strconv.Itoa(out.ProtocolError.Code)
		return failure{code, code, out.ProtocolError.Message}
	case out.ToolResult != nil && out.ToolResult.IsError:
		return failure{errorType: ErrorTypeToolError, description: firstText(out.ToolResult)}
	case out.Cancelled:
		f := failure{errorType: ErrorTypeCancelled, description: "request cancelled"}
		if errors.Is(out.Err, context.DeadlineExceeded) {
			f.errorType = ErrorTypeTimeout
		}
		if out.Err != nil {
			f.description = out.Err.Error()
		}
		return f
	}
	return failure{}
}

// firstText returns the text of res's first text block: what a host that
// shows only one block shows, and what the server's error table calls
// the tool error's message.
func firstText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	return ""
}
