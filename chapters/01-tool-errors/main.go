// Chapter 01: a tool error, which the model reads and can correct itself from.
//
// get_author returns an ordinary Go error for a title the catalog lacks. The
// call still succeeds: its result has isError set and the error text in its
// content, where the model reads it. list_books declares a bound on its
// argument in an mcp tag: a call beyond it is rejected before the handler
// runs, as a tool error the model reads too.
package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

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

type listArgs struct {
	Limit   int      `json:"limit" jsonschema:"how many titles to list" mcp:"minimum=1,maximum=50"`
	Authors []string `json:"authors,omitempty" jsonschema:"list only the books of these authors"`
}

func listBooks(ctx context.Context, args listArgs) (string, error) {
	var titles []string
	for _, title := range slices.Sorted(maps.Keys(catalog)) {
		if len(args.Authors) == 0 || slices.Contains(args.Authors, catalog[title]) {
			titles = append(titles, title)
		}
	}
	return strings.Join(titles[:min(args.Limit, len(titles))], "\n"), nil
}

func newServer() *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	mcp.AddTool(s, mcp.Tool{Name: "list_books", Description: "List the titles in the catalog."}, listBooks)
	return s
}

func main() { mcp.Main(newServer()) }
