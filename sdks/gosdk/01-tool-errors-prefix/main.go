// Chapter 01 with the official Go SDK, the guide's way: a tool error whose
// text names the tool.
//
// The SDK sends a tool error's text bare. The guide, like the Python SDK,
// sends "Error executing tool get_author: No book titled ...". A receiving
// middleware is the SDK's place for it: it sees every tools/call result and
// prefixes the text of those with isError set, validation errors included.
package main

import (
	"context"
	"fmt"
	"log"

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

// prefixToolErrors puts "Error executing tool <name>: " before the text of
// every tool error.
func prefixToolErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		call, isCall := req.(*mcp.CallToolRequest)
		result, isResult := res.(*mcp.CallToolResult)
		if err != nil || !isCall || !isResult || !result.IsError {
			return res, err
		}
		for _, c := range result.Content {
			if text, ok := c.(*mcp.TextContent); ok {
				text.Text = fmt.Sprintf("Error executing tool %s: %s", call.Params.Name, text.Text)
			}
		}
		return result, nil
	}
}

func main() {
	log.SetFlags(0) // no timestamp, so that the pins hold the line
	server := mcp.NewServer(&mcp.Implementation{Name: "Bookshop", Version: "1.0.0"}, nil)
	server.AddReceivingMiddleware(prefixToolErrors)
	mcp.AddTool(server, &mcp.Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."}, getAuthor)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
