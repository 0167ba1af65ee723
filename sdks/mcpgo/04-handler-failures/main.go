// Chapter 04 with mcp-go: the failures nobody wrote, in a Bookshop written
// the way mcp-go's examples write one, with its defaults.
//
// get_author has a bug: Beowulf has no known author, and the handler takes
// every book's first, which panics. check_stock asks the warehouse
// (warehouse.go) under a deadline and returns a Go error when it passes or
// when the warehouse fails. get_price has a bug too: a discount above
// Beowulf's price makes it negative, which its output schema forbids.
// wait_for_stock waits until the warehouse answers or the call's context
// ends, and logs when it starts and stops waiting, so that the log shows
// whether a cancelled call's context was cancelled.
//
// 04-handler-failures-result is the same server with the changes that give
// the guide's behaviour.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var catalog = map[string][]string{
	"Dune":        {"Frank Herbert"},
	"Neuromancer": {"William Gibson"},
	"Beowulf":     {}, // author unknown
}

func getAuthor(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title := req.GetString("title", "")
	authors, ok := catalog[title]
	if !ok {
		return nil, fmt.Errorf("No book titled '%s' in the catalog.", title)
	}
	return mcp.NewToolResultText(authors[0]), nil // the bug: a book may have no known author
}

// warehouseTimeout bounds the wait for the warehouse's answer.
const warehouseTimeout = 250 * time.Millisecond

func checkStock(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title := req.GetString("title", "")
	ctx, cancel := context.WithTimeout(ctx, warehouseTimeout)
	defer cancel()
	copies, err := askWarehouse(ctx, title)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("The warehouse did not answer within %v; try again later (%w).", warehouseTimeout, err)
	}
	if err != nil {
		return nil, err // the warehouse's own text, SQL and all
	}
	return mcp.NewToolResultText(fmt.Sprintf("%d copies of %s in stock.", copies, title)), nil
}

// logger writes the chapter's own log lines to stderr.
var logger = slog.New(slog.NewTextHandler(os.Stderr, nil))

func waitForStock(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title := req.GetString("title", "")
	logger.InfoContext(ctx, "waiting for the warehouse", "title", title)
	copies, err := askWarehouse(ctx, title) // for Neuromancer, until the context ends
	logger.InfoContext(ctx, "stopped waiting", "title", title, "error", err)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(fmt.Sprintf("%d copies of %s in stock.", copies, title)), nil
}

// stdioLog is mcp-go's own log (a recovered panic, say) without the time
// it prefixes by default, so that the pins can hold its lines.
var stdioLog = server.WithErrorLogger(log.New(os.Stderr, "", 0))

func newServer(opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("Bookshop", "1.0.0", append([]server.ServerOption{server.WithToolCapabilities(false)}, opts...)...)
	title := mcp.WithString("title", mcp.Required(), mcp.Description("the exact title of the book"))
	s.AddTool(mcp.NewTool("get_author",
		mcp.WithDescription("Look up the author of a book in the catalog."), title), getAuthor)
	s.AddTool(mcp.NewTool("check_stock",
		mcp.WithDescription("Ask the warehouse how many copies it holds."), title), checkStock)
	s.AddTool(mcp.NewTool("get_price",
		mcp.WithDescription("Look up the price of a book, in euros."), title, mcp.WithRawOutputSchema(json.RawMessage(priceSchema))), getPrice)
	s.AddTool(mcp.NewTool("wait_for_stock",
		mcp.WithDescription("Wait, with no deadline, for the warehouse."), title), waitForStock)
	return s
}

func main() {
	if err := server.ServeStdio(newServer(), stdioLog); err != nil {
		log.Fatal(err)
	}
}
