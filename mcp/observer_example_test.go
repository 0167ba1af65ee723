package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/mcpbookshop/guide/mcp"
)

// An observer sees each request start, with its trace context, and end,
// with its outcome. Here it prints both, and what a tracer would record
// as the span's error.type: the JSON-RPC code of a protocol error, or
// "tool_error" for a tool error.
func ExampleOptions_observe() {
	s := mcp.NewServer("Bookshop", "1.0.0", &mcp.Options{
		Logger: slog.New(slog.DiscardHandler),
		Observe: func(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
			fmt.Printf("start %s %s, id %s, traceparent %q\n", req.Method, req.Name, req.ID, req.Traceparent)
			return ctx, func(out mcp.Outcome) {
				fmt.Printf("end   %s, id %s: %s\n", req.Method, req.ID, describe(out))
			}
		},
	})
	mcp.AddTool(s, mcp.Tool{Name: "get_author"}, func(ctx context.Context, args struct {
		Title string `json:"title"`
	}) (string, error) {
		if args.Title != "Dune" {
			return "", errors.New("no such book")
		}
		return "Frank Herbert", nil
	})

	session := s.NewSession()
	call := func(id, tool, title, meta string) {
		session.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+tool+`","arguments":{"title":"`+title+`"},`+
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`+meta+`}}}`))
	}
	call("1", "get_author", "Dune", `,"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"`)
	call("2", "get_author", "Nothing", "")
	call("3", "get_title", "Dune", "")
	// Output:
	// start tools/call get_author, id 1, traceparent "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	// end   tools/call, id 1: a result
	// start tools/call get_author, id 2, traceparent ""
	// end   tools/call, id 2: error.type tool_error (row tool-error: no such book)
	// start tools/call get_title, id 3, traceparent ""
	// end   tools/call, id 3: error.type -32602 (row unknown-tool: Unknown tool: get_title (code -32602))
}

// describe says how a request ended.
func describe(out mcp.Outcome) string {
	switch {
	case out.Cancelled:
		return "cancelled: " + out.Err.Error()
	case out.ProtocolError != nil:
		return "error.type " + strconv.Itoa(out.ProtocolError.Code) + " (row " + out.Row + ": " + out.Err.Error() + ")"
	case out.ToolResult != nil && out.ToolResult.IsError:
		return "error.type tool_error (row " + out.Row + ": " + out.Err.Error() + ")"
	}
	return "a result"
}
