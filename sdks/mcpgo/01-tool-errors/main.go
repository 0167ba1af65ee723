// Chapter 01 with mcp-go, written the way its examples write a tool: the
// handler returns a Go error for a title the catalog lacks.
//
// mcp-go turns that error into a JSON-RPC error, -32603 with the error's
// text, where the guide sends a tool error the model reads (isError). Its
// arguments are not checked against the input schema either: a title that
// is not a string reaches the handler. 01-tool-errors-result is the same
// server with the two changes that give the guide's behaviour.
package main

import (
	"context"
	"fmt"
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
		return nil, err
	}
	author, ok := catalog[title]
	if !ok {
		return nil, fmt.Errorf("No book titled '%s' in the catalog.", title)
	}
	return mcp.NewToolResultText(author), nil
}

func listBooks(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	limit, err := req.RequireInt("limit")
	if err != nil {
		return nil, err
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
	s := server.NewMCPServer("Bookshop", "1.0.0", server.WithToolCapabilities(false))
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
