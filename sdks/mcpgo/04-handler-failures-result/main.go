// Chapter 04 with mcp-go, the way to the guide's behaviour: the Bookshop of
// 04-handler-failures with two server options, and one handler line.
//
// toolErrors, a tool handler middleware, turns a handler's Go error into a
// tool error the model reads (isError), and a panic into a bare tool error,
// its value and stack in the log only. check_stock marks the warehouse's
// own error internal (internalError), as the guide's mcp.Internal does:
// toolErrors logs it and sends the bare tool error. The option
// server.WithOutputSchemaValidation checks a structured result against the
// tool's output schema, so get_price's negative price is not sent.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"runtime/debug"
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
		return nil, internalError{err} // the fix: the warehouse's text is for the log only
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

// internalError marks an error whose text is for the operator's log only,
// as the guide's mcp.Internal does: toolErrors tells the model only that
// the tool failed.
type internalError struct{ error }

func (e internalError) Unwrap() error { return e.error }

// toolErrors is the middleware that makes every handler failure a tool
// error: the fix.
func toolErrors(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		bare := "Error executing tool " + req.Params.Name
		defer func() {
			if p := recover(); p != nil {
				logger.ErrorContext(ctx, "panic in tool handler", "tool", req.Params.Name, "panic", p, "stack", string(debug.Stack()))
				res, err = mcp.NewToolResultError(bare), nil
			}
		}()
		res, err = next(ctx, req)
		var internal internalError
		switch {
		case errors.As(err, &internal):
			logger.ErrorContext(ctx, "tool failed", "tool", req.Params.Name, "error", internal.error)
			return mcp.NewToolResultError(bare), nil
		case err != nil:
			logger.InfoContext(ctx, "tool error", "tool", req.Params.Name, "error", err)
			return mcp.NewToolResultError(err.Error()), nil
		}
		return res, nil
	}
}

func main() {
	s := newServer(
		server.WithToolHandlerMiddleware(toolErrors), // the fix: failures become tool errors
		server.WithOutputSchemaValidation())          // the fix: no result that breaks its schema
	if err := server.ServeStdio(s, stdioLog); err != nil {
		log.Fatal(err)
	}
}
