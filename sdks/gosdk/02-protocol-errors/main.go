// Chapter 02 with the official Go SDK: a protocol error, which the host
// handles and the model never sees.
//
// get_author returns a *jsonrpc.Error for a title the catalog lacks. The
// SDK sends it as the JSON-RPC error of the whole tools/call, code and
// message as given, but only when the handler returns it as it is: see
// 02-protocol-errors-wrapped for what wrapping it does.
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
		return nil, nil, &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("No book titled '%s' in the catalog.", args.Title),
		}
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
