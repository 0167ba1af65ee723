package main

import (
	"context"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverPanics is a receiving middleware: a panic in a handler becomes the
// JSON-RPC error -32603 "Internal error", which tells the client nothing of
// the server's insides, and an ERROR log line with the panic and its stack.
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				logger.ErrorContext(ctx, "panic", "method", method, "panic", p, "stack", string(debug.Stack()))
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error"}
			}
		}()
		return next(ctx, method, req)
	}
}
