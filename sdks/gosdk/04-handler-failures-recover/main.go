// Chapter 04 with the official Go SDK, the guide's way: a panic recovered,
// and the warehouse's own error kept for the log.
//
// The same four tools as the guide's chapter: get_author has a bug (Beowulf
// has no known author, and the handler takes every book's first);
// check_stock asks the warehouse (warehouse.go) under a deadline; get_price
// has a bug too (price.go); wait_for_stock waits until the client cancels.
//
// The SDK recovers no panic: a handler's panic ends the process, and every
// session with it. recoverPanics (recover.go), a receiving middleware,
// turns a panic in a tool into the guide's bare tool error and logs it with
// its stack, and the next request is served. The SDK has no mark for an
// error whose text is for the log only, as the guide's mcp.Internal is, so
// check_stock logs the warehouse's error itself and returns the bare tool
// error, which tells the model only that the tool failed.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var catalog = map[string][]string{
	"Dune":        {"Frank Herbert"},
	"Neuromancer": {"William Gibson"},
	"Beowulf":     {}, // author unknown
}

type titleArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

// text is a tool result holding one text.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func getAuthor(ctx context.Context, req *mcp.CallToolRequest, args titleArgs) (*mcp.CallToolResult, any, error) {
	authors, ok := catalog[args.Title]
	if !ok {
		return nil, nil, fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return text(authors[0]), nil, nil // the bug: a book may have no known author
}

// warehouseTimeout bounds the wait for the warehouse's answer.
const warehouseTimeout = 250 * time.Millisecond

func checkStock(ctx context.Context, req *mcp.CallToolRequest, args titleArgs) (*mcp.CallToolResult, any, error) {
	ctx, cancel := context.WithTimeout(ctx, warehouseTimeout)
	defer cancel()
	copies, err := askWarehouse(ctx, args.Title)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, fmt.Errorf("The warehouse did not answer within %v; try again later (%w).",
			warehouseTimeout, err)
	}
	if err != nil {
		// The fix: the warehouse's text is for the operator, not the model.
		logger.ErrorContext(ctx, "tool failed", "tool", req.Params.Name, "error", err)
		return &mcp.CallToolResult{IsError: true,
			Content: []mcp.Content{&mcp.TextContent{Text: "Error executing tool " + req.Params.Name}}}, nil, nil
	}
	return text(fmt.Sprintf("%d copies of %s in stock.", copies, args.Title)), nil, nil
}

// logger writes the Bookshop's own log lines to stderr.
var logger = slog.New(slog.NewTextHandler(os.Stderr, nil))

func waitForStock(ctx context.Context, req *mcp.CallToolRequest, args titleArgs) (*mcp.CallToolResult, any, error) {
	logger.InfoContext(ctx, "waiting for the warehouse", "title", args.Title)
	copies, err := askWarehouse(ctx, args.Title) // for Neuromancer, until the client cancels
	if err != nil {
		return nil, nil, err
	}
	return text(fmt.Sprintf("%d copies of %s in stock.", copies, args.Title)), nil, nil
}

// newServer is the Bookshop, without the transport.
func newServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "Bookshop", Version: "1.0.0"}, nil)
	server.AddReceivingMiddleware(recoverPanics)
	mcp.AddTool(server, &mcp.Tool{Name: "get_author",
		Description: "Look up the author of a book in the catalog."}, getAuthor)
	mcp.AddTool(server, &mcp.Tool{Name: "check_stock",
		Description: "Ask the warehouse how many copies it holds."}, checkStock)
	mcp.AddTool(server, &mcp.Tool{Name: "get_price",
		Description: "Look up the price of a book, in euros.", OutputSchema: priceSchema()}, getPrice)
	mcp.AddTool(server, &mcp.Tool{Name: "wait_for_stock",
		Description: "Wait, with no deadline, for the warehouse."}, waitForStock)
	return server
}

func main() {
	log.SetFlags(0) // no timestamp, so that the pins hold the line
	if err := newServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
