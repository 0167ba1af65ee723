package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

// A protocol error reaches the client as a Go error, not as a result:
// errors.As gives the code, message and data the server sent.
func Example_protocolError() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "get_author", map[string]any{"title": "Nothing"})
	var perr *mcp.Error
	if !errors.As(err, &perr) {
		log.Fatalf("want a protocol error, got result %v and error %v", res, err)
	}
	fmt.Println("Code:", perr.Code)
	fmt.Println("Message:", perr.Message)
	fmt.Println("Data:", perr.Data)
	// Output:
	// Code: -32602
	// Message: No book titled 'Nothing' in the catalog.
	// Data: <nil>
}

// Calling a tool the server does not have is a protocol error too.
func Example_unknownTool() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	_, err = c.CallTool(ctx, "get_title", map[string]any{"author": "Frank Herbert"})
	var perr *mcp.Error
	if errors.As(err, &perr) {
		fmt.Println(perr.Code, perr.Message)
	}
	// Output:
	// -32602 Unknown tool: get_title
}
