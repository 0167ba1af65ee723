package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

// A panic reaches the client as a bare tool error: nothing of the panic
// value or the stack, which stay in the server's log. The server goes on.
func Example_panic() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer(nil)), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "get_author", map[string]any{"title": "Beowulf"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("IsError:", res.IsError)
	fmt.Println("Text:", res.Content[0].Text)

	res, err = c.CallTool(ctx, "get_author", map[string]any{"title": "Dune"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Next call:", res.Content[0].Text)
	// Output:
	// IsError: true
	// Text: Error executing tool get_author
	// Next call: Frank Herbert
}

// The server's deadline and the client's look nothing alike to the client.
// When the handler's deadline passes, the call succeeds and its result is
// a tool error the model reads. When the client's own deadline passes, the
// call fails with context.DeadlineExceeded: a local error, with no
// *mcp.Error in it, since the server sent nothing.
func Example_deadlines() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(newServer(nil)), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "check_stock", map[string]any{"title": "Neuromancer"})
	if err != nil {
		log.Fatal(err) // the call itself succeeds
	}
	fmt.Println("The server's deadline, IsError:", res.IsError)
	fmt.Println("Text:", res.Content[0].Text)

	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err = c.CallTool(short, "wait_for_stock", map[string]any{"title": "Neuromancer"})
	var perr *mcp.Error
	fmt.Println("The client's deadline:", err)
	fmt.Println("DeadlineExceeded:", errors.Is(err, context.DeadlineExceeded))
	fmt.Println("Sent by the server:", errors.As(err, &perr))
	// Output:
	// The server's deadline, IsError: true
	// Text: Error executing tool check_stock: The warehouse did not answer within 250ms; try again later (context deadline exceeded).
	// The client's deadline: context deadline exceeded
	// DeadlineExceeded: true
	// Sent by the server: false
}

// Options.Observe sees each request end with its Outcome, whose Err is
// the failure as a Go value, so errors.Is and errors.As tell a panic from
// a deadline, a validation failure from a protocol error, beside the row
// of the error table that answered and what the client was sent.
func Example_observe() {
	failures := make(chan string, 1)
	observe := func(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
		return ctx, func(out mcp.Outcome) {
			if out.Err != nil {
				failures <- describe(req, out)
			}
		}
	}
	s := newServer(&mcp.Options{Observe: observe})
	ctx := context.Background()
	c, err := client.Connect(ctx, client.InProcess(s), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	c.CallTool(ctx, "get_author", map[string]any{"title": "Beowulf"})
	fmt.Println(<-failures)
	c.CallTool(ctx, "check_stock", map[string]any{"title": "Neuromancer"})
	fmt.Println(<-failures)
	c.CallTool(ctx, "get_author", map[string]any{"title": 42})
	fmt.Println(<-failures)
	c.CallTool(ctx, "get_title", map[string]any{"author": "Frank Herbert"})
	fmt.Println(<-failures)

	waiting, cancel := context.WithCancel(ctx)
	time.AfterFunc(10*time.Millisecond, cancel) // the user stops waiting
	c.CallTool(waiting, "wait_for_stock", map[string]any{"title": "Neuromancer"})
	fmt.Println(<-failures)
	// Output:
	// id 2 get_author: a panic (runtime error: index out of range [0] with length 0), row tool-panic; sent "Error executing tool get_author"
	// id 3 check_stock: a deadline, row tool-error; sent "Error executing tool check_stock: The warehouse did not answer within 250ms; try again later (context deadline exceeded)."
	// id 4 get_author: invalid arguments, row invalid-arguments; sent "Error executing tool get_author: /title: expected a string, got the number 42"
	// id 5 get_title: protocol error -32602, row unknown-tool; sent "Unknown tool: get_title"
	// id 6 wait_for_stock: cancelled (context canceled); sent nothing
}

// describe says what kind of failure ended req, by out, and what the
// client was sent.
func describe(req mcp.RequestInfo, out mcp.Outcome) string {
	var panicked *mcp.PanicError
	var invalid *mcp.ArgumentsError
	var perr *mcp.Error
	var kind string
	switch {
	case out.Cancelled:
		kind = fmt.Sprintf("cancelled (%v)", out.Err)
	case errors.As(out.Err, &panicked):
		kind = fmt.Sprintf("a panic (%v)", panicked.Value)
	case errors.Is(out.Err, context.DeadlineExceeded):
		kind = "a deadline"
	case errors.As(out.Err, &invalid):
		kind = "invalid arguments"
	case errors.As(out.Err, &perr):
		kind = fmt.Sprintf("protocol error %d", perr.Code)
	default:
		kind = "a tool error"
	}
	if out.Row != "" {
		kind += ", row " + out.Row
	}
	sent := "nothing"
	switch {
	case out.ToolResult != nil:
		sent = fmt.Sprintf("%q", out.ToolResult.Content[0].Text)
	case out.ProtocolError != nil:
		sent = fmt.Sprintf("%q", out.ProtocolError.Message)
	}
	return fmt.Sprintf("id %s %s: %s; sent %s", req.ID, req.Name, kind, sent)
}
