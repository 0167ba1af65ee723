// Chapter 02 with mcp-go: the guide's handler chooses a protocol error,
// -32602 for a title the catalog lacks.
//
// mcp-go has no way to do that: every error a tool handler returns becomes
// -32603 with the error's text (its requestError type is unexported), so
// this is the whole of the chapter in mcp-go, and no variant reaches the
// guide's code.
package main

import (
	"context"
	"fmt"
	"log"

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
		// The guide sends -32602 (Invalid params) here; mcp-go sends -32603,
		// so the chapter's server is 01-tool-errors' get_author.
		return nil, fmt.Errorf("No book titled '%s' in the catalog.", title)
	}
	return mcp.NewToolResultText(author), nil
}

func main() {
	s := server.NewMCPServer("Bookshop", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("get_author",
		mcp.WithDescription("Look up the author of a book in the catalog."),
		mcp.WithString("title", mcp.Required(), mcp.Description("the exact title of the book")),
	), getAuthor)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
