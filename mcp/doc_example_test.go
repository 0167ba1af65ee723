package mcp_test

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

// The server the package documentation opens with (TestPackageDocExample
// keeps the two alike), asked through a session instead of Main's stdin:
// a call that succeeds, and one whose ordinary Go error becomes a tool
// error the model reads. The tool error is also logged, on stderr.
func Example() {
	s := mcp.NewServer("Bookshop", "1.0.0", nil)
	mcp.AddTool(s, mcp.Tool{Name: "get_author", Description: "Look up the author of a book."},
		func(ctx context.Context, args struct {
			Title string `json:"title"`
		}) (string, error) {
			if args.Title != "Dune" {
				return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
			}
			return "Frank Herbert", nil
		})

	session := s.NewSession()
	for _, title := range []string{"Dune", "Nothing"} {
		line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"` + title + `"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		fmt.Print(string(session.Handle(context.Background(), []byte(line))))
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Frank Herbert"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"1.0.0"}}}}
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool get_author: No book titled 'Nothing' in the catalog."}],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"1.0.0"}}}}
}
