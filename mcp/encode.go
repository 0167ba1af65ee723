package mcp

import (
	"strconv"

	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
)

// The results sent most often are encoded here without reflection, byte
// for byte as encoding/json encodes them with HTML escaping off
// (TestAppendJSONMatchesEncodingJSON); on chapter 01's result that takes
// a fifth of encoding/json's time (BenchmarkAppendResult). Anything else, a structured tool result
// included, is left to encoding/json.

// appendResult appends the JSON of result to b and reports true, or
// reports false when result is not a type encoded here.
func appendResult(b []byte, result any) ([]byte, bool) {
	switch r := result.(type) {
	case *callToolWire:
		if r.CallToolResult == nil || r.StructuredContent != nil {
			return b, false
		}
		b = append(b, `{"content":`...)
		b = appendContent(b, r.Content)
		if r.IsError {
			b = append(b, `,"isError":true`...)
		}
		return appendResultMeta(b, &r.resultMeta), true
	case *readResourceResult:
		b = append(b, `{"contents":`...)
		if r.Contents == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, c := range r.Contents {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"uri":`...)
				b = jsonwire.AppendString(b, c.URI)
				if c.MIMEType != "" {
					b = append(b, `,"mimeType":`...)
					b = jsonwire.AppendString(b, c.MIMEType)
				}
				b = append(b, `,"text":`...)
				b = jsonwire.AppendString(b, c.Text)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = appendResultMeta(b, &r.resultMeta)
		b = b[:len(b)-1] // reopen the object for the cache fields
		if r.TTLMs != nil {
			b = append(b, `,"ttlMs":`...)
			b = strconv.AppendInt(b, *r.TTLMs, 10)
		}
		if r.CacheScope != "" {
			b = append(b, `,"cacheScope":`...)
			b = jsonwire.AppendString(b, r.CacheScope)
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendContent appends content blocks.
func appendContent(b []byte, content []Content) []byte {
	if content == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range content {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = jsonwire.AppendString(b, c.Type)
		b = append(b, `,"text":`...)
		b = jsonwire.AppendString(b, c.Text)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendResultMeta appends a modern result's decorations, if any, and the
// brace that closes the result.
func appendResultMeta(b []byte, m *resultMeta) []byte {
	if m.ResultType != "" {
		b = append(b, `,"resultType":`...)
		b = jsonwire.AppendString(b, m.ResultType)
	}
	if m.Meta != nil {
		b = append(b, `,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":`...)
		b = jsonwire.AppendString(b, m.Meta.ServerInfo.Name)
		b = append(b, `,"version":`...)
		b = jsonwire.AppendString(b, m.Meta.ServerInfo.Version)
		b = append(b, "}}"...)
	}
	return append(b, '}')
}
