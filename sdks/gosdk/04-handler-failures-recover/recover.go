package main

import (
	"context"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverPanics is a receiving middleware that recovers a handler's panic,
// as the guide's core does: it logs the panic and its stack at ERROR, and
// answers with nothing of the server's insides. A tool call gets a tool
// error naming only the tool, any other request -32603 "Internal error".
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			logger.ErrorContext(ctx, "panic", "method", method, "panic", p, "stack", string(debug.Stack()))
			if call, ok := req.(*mcp.CallToolRequest); ok {
				res, err = &mcp.CallToolResult{IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: "Error executing tool " + call.Params.Name}}}, nil
				return
			}
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error"}
		}()
		return next(ctx, method, req)
	}
}
