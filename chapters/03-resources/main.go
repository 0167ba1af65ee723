// Chapter 03: a resource fails in three ways.
//
// books://{title} matches any title, so only the handler can tell whether the
// book exists. When it does not, the handler returns mcp.ResourceNotFound and
// the client gets -32602 with the requested URI in data. An entry being
// reindexed is a failure the handler expects: mcp.ResourceFailure sends
// -32603 with its message. Any other error is the server's own: the client
// gets -32603 "Internal error" with the URI, and only the log gets the error.
package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson", "Solaris": "Stanisław Lem"}

// reindexing holds the titles whose entries are being rebuilt.
var reindexing = map[string]bool{"Beowulf": true}

func book(ctx context.Context, req *mcp.ResourceRequest) (string, error) {
	title := req.Params["title"]
	if reindexing[title] {
		return "", mcp.ResourceFailure("The entry for '%s' is being reindexed; try again in a minute.", title)
	}
	author, ok := catalog[title]
	switch {
	case !ok:
		return "", mcp.ResourceNotFound("No book titled '%s' in the catalog.", title)
	case title == "Solaris": // a stand-in for a failing database
		return "", errors.New(`catalog shard eu-2: pq: relation "books_eu" does not exist`)
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
