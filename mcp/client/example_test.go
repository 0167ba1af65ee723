package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os/exec"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

type greetArgs struct {
	Name string `json:"name"`
}

func greet(ctx context.Context, args greetArgs) (string, error) {
	if args.Name == "" {
		return "", errors.New("whom should I greet?")
	}
	return "Hello, " + args.Name + "!", nil
}

// A client connected to a server in the same process: no pipes, no
// process, the same messages.
func ExampleConnect() {
	s := mcp.NewServer("Greeter", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "greet"}, greet)

	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(s), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "greet", greetArgs{Name: "Ada"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.ProtocolVersion())
	fmt.Println(res.Content[0].Text)
	// Output:
	// 2026-07-28
	// Hello, Ada!
}

// A client of a server program, here one of the guide's chapters, started
// with "go run" from the root of the guide and pinned to the legacy era.
func ExampleCommand() {
	cmd := exec.Command("go", "run", "./chapters/01-tool-errors")
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Command(cmd), &client.Options{Era: client.EraLegacy})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	tools, err := c.ListTools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name, string(t.InputSchema))
	}
}

// Servers up to protocol version 2025-11-25 said "not found" with -32002;
// since SEP-2164 they send -32602 with the URI in data. Both are not found.
func ExampleIsResourceNotFound() {
	legacy := &mcp.Error{Code: client.CodeLegacyResourceNotFound, Message: "Resource not found"}
	modern := &mcp.Error{Code: mcp.CodeInvalidParams, Message: "No such book", Data: map[string]any{"uri": "books://Nothing"}}
	other := &mcp.Error{Code: mcp.CodeInvalidParams, Message: "Unknown tool: get_title"}
	fmt.Println(client.IsResourceNotFound(legacy), client.IsResourceNotFound(modern), client.IsResourceNotFound(other))
	// Output:
	// true true false
}
