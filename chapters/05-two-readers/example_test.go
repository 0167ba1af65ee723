package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/mcpbookshop/guide/mcp/client"
)

// A Go program reads a failed order twice over: the text, which is all a
// model may be shown, and the structured content, decoded into the tool's
// own type, which says the same as data.
func Example_twoReaders() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer(nil)), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "order_book", map[string]any{"title": "Neuromancer", "copies": 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("IsError:", res.IsError)
	fmt.Println("For the model:", res.Content[0].Text)

	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		log.Fatal(err)
	}
	var o order
	if err := json.Unmarshal(raw, &o); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("For a program: %s, change %q, %d available\n", o.Error.Code, o.Error.Field, *o.Error.Available)
	// Output:
	// IsError: true
	// For the model: Error executing tool order_book: The warehouse holds 1 of 'Neuromancer'; order at most that many.
	// For a program: out_of_stock, change "copies", 1 available
}
