// Chapter 03 with mcp-go: a resource template, books://{title}, whose
// handler fails in three ways: no such book, an entry being reindexed, and
// a failing database.
//
// mcp-go sends every error the handler returns as -32603 with the error's
// text, database details included, and no data. Its own "resource not
// found" (-32002, or -32602 in the 2026-07-28 era) is only for a URI that
// matches no template, and books://{title} matches every book URI.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson", "Solaris": "Stanisław Lem"}

// reindexing holds the titles whose entries are being rebuilt.
var reindexing = map[string]bool{"Beowulf": true}

func book(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	var title string
	if v, ok := req.Params.Arguments["title"].([]string); ok && len(v) > 0 { // mcp-go passes []string
		title = v[0]
	}
	if reindexing[title] {
		return nil, fmt.Errorf("The entry for '%s' is being reindexed; try again in a minute.", title)
	}
	author, ok := catalog[title]
	switch {
	case !ok:
		return nil, fmt.Errorf("No book titled '%s' in the catalog.", title)
	case title == "Solaris": // a stand-in for a failing database
		return nil, errors.New(`catalog shard eu-2: pq: relation "books_eu" does not exist`)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{
		URI: req.Params.URI, MIMEType: "text/plain", Text: fmt.Sprintf("%s by %s", title, author),
	}}, nil
}

func main() {
	s := server.NewMCPServer("Bookshop", "1.0.0", server.WithResourceCapabilities(false, false))
	s.AddResourceTemplate(mcp.NewResourceTemplate("books://{title}", "book",
		mcp.WithTemplateDescription("The catalog entry for one book."),
	), book)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
