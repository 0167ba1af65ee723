package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

// Reading a resource that does not exist is a protocol error that carries the
// requested URI in its data; client.IsResourceNotFound recognizes it, and the
// older code -32002 too.
func Example_resourceNotFound() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	_, err = c.ReadResource(ctx, "books://Nothing")
	fmt.Println("Not found:", client.IsResourceNotFound(err))
	var perr *mcp.Error
	if errors.As(err, &perr) {
		fmt.Println("Code:", perr.Code)
		fmt.Println("Message:", perr.Message)
		fmt.Println("Data:", perr.Data)
	}
	// Output:
	// Not found: true
	// Code: -32602
	// Message: No book titled 'Nothing' in the catalog.
	// Data: map[uri:books://Nothing]
}

// A book that exists reads as text.
func Example_read() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer()), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	contents, err := c.ReadResource(ctx, "books://Dune")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(contents[0].URI, contents[0].MIMEType)
	fmt.Println(contents[0].Text)
	// Output:
	// books://Dune text/plain
	// Dune by Frank Herbert
}
