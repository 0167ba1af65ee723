package main

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpbookshop/guide/mcp/client"
)

// A tool error reaches the client as a result, not as a Go error: IsError is
// set, the content says what went wrong, and there is no structured content.
func Example_toolError() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "get_author", map[string]any{"title": "Nothing"})
	if err != nil {
		log.Fatal(err) // a protocol error or a broken connection; not this time
	}
	fmt.Println("IsError:", res.IsError)
	fmt.Println("Text:", res.Content[0].Text)
	fmt.Println("StructuredContent:", res.StructuredContent)
	// Output:
	// IsError: true
	// Text: Error executing tool get_author: No book titled 'Nothing' in the catalog.
	// StructuredContent: <nil>
}

// An argument of the wrong type never reaches the handler: the input schema
// rejects it, and the model reads which field is wrong and why.
func Example_wrongType() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "get_author", map[string]any{"title": 42})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("IsError:", res.IsError)
	fmt.Println("Text:", res.Content[0].Text)
	// Output:
	// IsError: true
	// Text: Error executing tool get_author: /title: expected a string, got the number 42
}

// The era makes no difference to what the client sees: here the client is
// pinned to the legacy handshake.
func Example_legacyEra() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), &client.Options{Era: client.EraLegacy})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "get_author", map[string]any{"title": "Dune"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.ProtocolVersion())
	fmt.Println("IsError:", res.IsError)
	fmt.Println("Text:", res.Content[0].Text)
	// Output:
	// 2025-11-25
	// IsError: false
	// Text: Frank Herbert
}
