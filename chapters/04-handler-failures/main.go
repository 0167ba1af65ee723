// Chapter 04: the failures nobody wrote: a panic, an upstream that does not
// answer or fails in words meant for its operator, a result that breaks its
// own schema, a client that gives up.
//
// get_author has a bug: Beowulf has no known author, and the handler takes
// every book's first. check_stock asks the warehouse (warehouse.go) under a
// deadline, and says so when it passes; any other failure of the warehouse
// is marked mcp.Internal, since its text describes the warehouse's insides
// (-leak sends it to the model as it is, to show why). get_price has a bug
// too (price.go). wait_for_stock has no deadline of its own: it waits until
// the client cancels the call, and logs when it starts waiting, so that the
// log shows each wait and how it ended.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/mcpbookshop/guide/mcp"
)

var leak = flag.Bool("leak", false, "send the warehouse's own errors to the model, unmarked")

var catalog = map[string][]string{
	"Dune":        {"Frank Herbert"},
	"Neuromancer": {"William Gibson"},
	"Beowulf":     {}, // author unknown
}

type titleArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

func getAuthor(ctx context.Context, args titleArgs) (string, error) {
	authors, ok := catalog[args.Title]
	if !ok {
		return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return authors[0], nil // the bug: a book may have no known author
}

// warehouseTimeout bounds the wait for the warehouse's answer.
const warehouseTimeout = 250 * time.Millisecond

func checkStock(ctx context.Context, args titleArgs) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, warehouseTimeout)
	defer cancel()
	copies, err := askWarehouse(ctx, args.Title)
	if errors.Is(err, context.DeadlineExceeded) {
		return "", fmt.Errorf("The warehouse did not answer within %v; try again later (%w).",
			warehouseTimeout, err)
	}
	if err != nil && !*leak {
		err = mcp.Internal(err) // its text is for the log, not the model
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d copies of %s in stock.", copies, args.Title), nil
}

// logger writes the chapter's own log lines to stderr, as the core
// writes its lines.
var logger = slog.New(slog.NewTextHandler(os.Stderr, nil))

func waitForStock(ctx context.Context, args titleArgs) (string, error) {
	logger.InfoContext(ctx, "waiting for the warehouse", "title", args.Title)
	copies, err := askWarehouse(ctx, args.Title) // for Neuromancer, when the client cancels
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d copies of %s in stock.", copies, args.Title), nil
}

func newServer(opts *mcp.Options) *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", opts)
	mcp.AddTool(s, mcp.Tool{Name: "get_author",
		Description: "Look up the author of a book in the catalog."}, getAuthor)
	mcp.AddTool(s, mcp.Tool{Name: "check_stock",
		Description: "Ask the warehouse how many copies it holds."}, checkStock)
	mcp.AddTool(s, mcp.Tool{Name: "get_price",
		Description: "Look up the price of a book, in euros."}, getPrice)
	mcp.AddTool(s, mcp.Tool{Name: "wait_for_stock",
		Description: "Wait, with no deadline, for the warehouse."}, waitForStock)
	return s
}

func main() { mcp.Main(newServer(nil)) }
