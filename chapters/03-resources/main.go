// Chapter 03: a resource that does not exist.
//
// books://{title} matches any title, so only the handler can tell whether the
// book exists. When it does not, the handler returns mcp.ResourceNotFound and
// the client gets -32602 with the requested URI in data.
package main

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

func book(ctx context.Context, req *mcp.ResourceRequest) (string, error) {
	title := req.Params["title"]
	author, ok := catalog[title]
	if !ok {
		return "", mcp.ResourceNotFound("No book titled '%s' in the catalog.", title)
	}
	return fmt.Sprintf("%s by %s", title, author), nil
}

func newServer() *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", nil)
	s.AddResourceTemplate(mcp.ResourceTemplate{
		URITemplate: "books://{title}",
		Name:        "book",
		Description: "The catalog entry for one book.",
	}, book)
	return s
}

func main() { mcp.Main(newServer()) }
