// Chapter 01 with the official Go SDK: a tool error.
//
// get_author returns an ordinary Go error for a title the catalog lacks. The
// SDK's typed handler turns it into a result with isError set and the
// error's text as its content, with no prefix naming the tool. list_books
// bounds its limit in the input schema, which the SDK checks before the
// handler runs.
package main

import (
	"context"
	"fmt"
	"log"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

type authorArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

func getAuthor(ctx context.Context, req *mcp.CallToolRequest, args authorArgs) (*mcp.CallToolResult, any, error) {
	author, ok := catalog[args.Title]
	if !ok {
		return nil, nil, fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: author}}}, nil, nil
}

type listArgs struct {
	Limit   int      `json:"limit" jsonschema:"how many titles to list"`
	Authors []string `json:"authors,omitempty" jsonschema:"list only the books of these authors"`
}

func listBooks(ctx context.Context, req *mcp.CallToolRequest, args listArgs) (*mcp.CallToolResult, any, error) {
	var titles []string
	for _, title := range slices.Sorted(maps.Keys(catalog)) {
		if len(args.Authors) == 0 || slices.Contains(args.Authors, catalog[title]) {
			titles = append(titles, title)
		}
	}
	text := strings.Join(titles[:min(args.Limit, len(titles))], "\n")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// listSchema is listArgs' inferred schema with the bounds of limit, which
// struct tags cannot say.
func listSchema() *jsonschema.Schema {
	s, err := jsonschema.For[listArgs](nil)
	if err != nil {
		log.Fatal(err)
	}
	s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
	s.Properties["limit"].Maximum = jsonschema.Ptr(50.0)
	return s
}

func main() {
	log.SetFlags(0) // no timestamp, so that the pins hold the line
	server := mcp.NewServer(&mcp.Implementation{Name: "Bookshop", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	mcp.AddTool(server, &mcp.Tool{Name: "list_books", Description: "List the titles in the catalog.",
		InputSchema: listSchema()}, listBooks)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
