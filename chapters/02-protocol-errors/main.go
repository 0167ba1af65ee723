// Chapter 02: a protocol error, which the host handles and the model never sees.
//
// get_author returns an *mcp.Error for a title the catalog lacks, so the whole
// tools/call request fails with that JSON-RPC error instead of a result.
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
		return "", &mcp.Error{
			Code:    mcp.CodeInvalidParams,
			Message: fmt.Sprintf("No book titled '%s' in the catalog.", args.Title),
		}
	}
	return author, nil
}

func newServer() *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	return s
}

func main() { mcp.Main(newServer()) }
