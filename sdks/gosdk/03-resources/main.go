// Chapter 03 with the official Go SDK: a resource fails in three ways.
//
// books://{title} matches any title. The SDK matches the template but does
// not hand the handler its variables: the handler cuts the title from the
// URI. An unknown title gets mcp.ResourceNotFoundError, the SDK's -32602
// with the URI in data. An entry being reindexed is a failure the handler
// expects and words itself, as a *jsonrpc.Error with code -32603. Any other
// error, here a stand-in for a failing database, is returned as it is; the
// pins show what the SDK makes of it.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson", "Solaris": "Stanisław Lem"}

// reindexing holds the titles whose entries are being rebuilt.
var reindexing = map[string]bool{"Beowulf": true}

func readBook(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	title := strings.TrimPrefix(uri, "books://")
	if reindexing[title] {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("The entry for '%s' is being reindexed; try again in a minute.", title)}
	}
	author, ok := catalog[title]
	switch {
	case !ok:
		return nil, mcp.ResourceNotFoundError(uri)
	case title == "Solaris": // a stand-in for a failing database
		return nil, errors.New(`catalog shard eu-2: pq: relation "books_eu" does not exist`)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/plain", Text: fmt.Sprintf("%s by %s", title, author)},
	}}, nil
}

func main() {
	log.SetFlags(0) // no timestamp, so that the pins hold the line
	server := mcp.NewServer(&mcp.Implementation{Name: "Bookshop", Version: "1.0.0"}, nil)
	server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "books://{title}",
		Name:        "book",
		Description: "The catalog entry for one book.",
	}, readBook)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
