package mcp_test

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

// A session is served one message at a time: here the legacy handshake,
// then a call in the version it negotiated.
func ExampleSession_Handle() {
	s := mcp.NewServer("Greeter", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "greet"}, func(ctx context.Context, args struct {
		Name string `json:"name"`
	}) (string, error) {
		return "Hello, " + args.Name + "!", nil
	})

	ctx := context.Background()
	session := s.NewSession()
	session.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`))
	session.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	fmt.Print(string(session.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`))))
	// Output:
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
}
