package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
)

// The results sent most often are encoded here without reflection, byte
// for byte as encoding/json encodes them with HTML escaping off
// (TestAppendJSONMatchesEncodingJSON, and TestAppendResultWritesEveryField
// for a field added to a result type later; BenchmarkAppendResult times
// it). Anything else, a structured tool result included, is left to
// encoding/json. See "Speed" in the package documentation.

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
	case *Error:
		return appendError(b, r)
	}
	return b, false
}

// appendError appends the JSON of e, when its data is none, a string or
// JSON text (as the rows of errorTable make it); encoding/json compacts
// JSON text, and so does appendError.
func appendError(b []byte, e *Error) ([]byte, bool) {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = jsonwire.AppendString(b, e.Message)
	switch d := e.Data.(type) {
	case nil:
	case string:
		b = append(b, `,"data":`...)
		b = jsonwire.AppendString(b, d)
	case json.RawMessage:
		buf := bytes.NewBuffer(append(b, `,"data":`...))
		if len(d) == 0 || json.Compact(buf, d) != nil {
			return b, false
		}
		b = buf.Bytes()
	default:
		return b, false
	}
	return append(b, '}'), true
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
