// Chapter 01: a tool error, which the model reads and can correct itself from.
//
// get_author returns an ordinary Go error for a title the catalog lacks. The
// call still succeeds: its result has isError set and the error text in its
// content, where the model reads it.
package main

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

type authorArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

func getAuthor(ctx context.Context, args authorArgs) (string, error) {
	author, ok := catalog[args.Title]
	if !ok {
		return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return author, nil
}

func newServer() *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	return s
}

func main() { mcp.Main(newServer()) }
