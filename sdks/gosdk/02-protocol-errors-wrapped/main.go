// Chapter 02 with the official Go SDK, wrapped: the protocol error that
// becomes a tool error.
//
// get_author adds context to its *jsonrpc.Error with fmt.Errorf and %w, as
// Go code usually does. The SDK looks for a *jsonrpc.Error with a type
// assertion, not errors.As, so the wrapped one is missed: the call gets a
// result with isError set and the wrapper's text, not the JSON-RPC error.
// The fix is to return the *jsonrpc.Error itself, as 02-protocol-errors
// does (or unwrap it in a middleware, with errors.As).
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var catalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

type authorArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

func getAuthor(ctx context.Context, req *mcp.CallToolRequest, args authorArgs) (*mcp.CallToolResult, any, error) {
	author, ok := catalog[args.Title]
	if !ok {
		notFound := &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("No book titled '%s' in the catalog.", args.Title),
		}
		return nil, nil, fmt.Errorf("get_author: %w", notFound) // the wrap that hides it
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: author}}}, nil, nil
}

func main() {
	log.SetFlags(0) // no timestamp, so that the pins hold the line
	server := mcp.NewServer(&mcp.Implementation{Name: "Bookshop", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
