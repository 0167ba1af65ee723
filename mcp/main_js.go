//go:build js

package mcp

import "github.com/mcpbookshop/guide/mcp/internal/browser"

// Main, in a browser (GOOS=js GOARCH=wasm), has no stdin to serve: it hands
// s to the page instead, which runs each of its connections as a fresh
// process would serve stdio, and waits for the page's calls. The log goes
// to the console.
func Main(s *Server) {
	browser.Serve(s.info.Name, s.Serve)
}
