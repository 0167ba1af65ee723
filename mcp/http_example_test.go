package mcp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpbookshop/guide/mcp"
)

// The MCP endpoint is an http.Handler: mount it where you like. Over HTTP
// a stateless (2026-07-28) request carries its era in headers as well as in
// its body, and a protocol error also sets the HTTP status.
func ExampleServer_HTTPHandler() {
	s := mcp.NewServer("Bookshop", "1.0.0", &mcp.Options{Logger: slog.New(slog.DiscardHandler)})
	type args struct {
		Title string `json:"title"`
	}
	mcp.AddTool(s, mcp.Tool{Name: "get_author"}, func(ctx context.Context, a args) (string, error) {
		return "", fmt.Errorf("No book titled '%s' in the catalog.", a.Title)
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(nil))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	post := func(name, tool string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"title":"Nothing"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer resp.Body.Close()
		reply, _ := io.ReadAll(resp.Body)
		fmt.Printf("%s\n%s", resp.Status, reply)
	}
	post("get_author", "get_author") // a tool error: a result, 200
	post("get_title", "get_title")   // an unknown tool: -32602, 400
	post("get_title", "get_author")  // a header that contradicts the body: -32020, 400
	// Output:
	// 200 OK
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool get_author: No book titled 'Nothing' in the catalog."}],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"1.0.0"}}}}
	// 400 Bad Request
	// {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: get_title"}}
	// 400 Bad Request
	// {"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: Mcp-Name header value 'get_title' does not match body value 'get_author'"}}
}
