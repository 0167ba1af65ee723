//go:build js

package main

import "github.com/mcpbookshop/guide/mcp"

// tracing is tracing.go's in the browser: no spans, and no OpenTelemetry
// in the page's module.
func tracing() (*mcp.Options, func()) { return nil, func() {} }
