// Chapter 01 with mcp-go, the way to the guide's behaviour: the same
// Bookshop as 01-tool-errors with three changes, each marked "the fix".
//
// A handler returns mcp.NewToolResultError(text), nil, not a Go error, so
// the model reads a tool error (isError) instead of the host getting
// -32603. server.WithInputSchemaValidation checks the arguments against
// the input schema before the handler runs, and
// server.WithStrictInputSchemaDefault makes an argument the schema does not
// know an error too. mcp-go adds no "Error executing tool <name>:" prefix.
package main

import (
	"context"
	"log"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

func getAuthor(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title, err := req.RequireString("title")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil // the fix: a result, not an error
	}
	author, ok := catalog[title]
	if !ok {
		return mcp.NewToolResultErrorf("No book titled '%s' in the catalog.", title), nil // the fix
	}
	return mcp.NewToolResultText(author), nil
}

func listBooks(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	limit, err := req.RequireInt("limit")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil // the fix
	}
	authors := req.GetStringSlice("authors", nil)
	var titles []string
	for _, title := range slices.Sorted(maps.Keys(catalog)) {
		if len(authors) == 0 || slices.Contains(authors, catalog[title]) {
			titles = append(titles, title)
		}
	}
	return mcp.NewToolResultText(strings.Join(titles[:min(limit, len(titles))], "\n")), nil
}

func main() {
	s := server.NewMCPServer("Bookshop", "1.0.0", server.WithToolCapabilities(false),
		server.WithInputSchemaValidation(),    // the fix: check arguments before the handler
		server.WithStrictInputSchemaDefault()) // the fix: additionalProperties false
	s.AddTool(mcp.NewTool("get_author",
		mcp.WithDescription("Look up the author of a book in the catalog."),
		mcp.WithString("title", mcp.Required(), mcp.Description("the exact title of the book")),
	), getAuthor)
	s.AddTool(mcp.NewTool("list_books",
		mcp.WithDescription("List the titles in the catalog."),
		mcp.WithNumber("limit", mcp.Required(), mcp.Description("how many titles to list"), mcp.Min(1), mcp.Max(50)),
		mcp.WithArray("authors", mcp.Description("list only the books of these authors"), mcp.WithStringItems()),
	), listBooks)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
