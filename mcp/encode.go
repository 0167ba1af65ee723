package mcp

import (
	"strconv"
	"unicode/utf8"
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
				b = appendString(b, c.URI)
				if c.MIMEType != "" {
					b = append(b, `,"mimeType":`...)
					b = appendString(b, c.MIMEType)
				}
				b = append(b, `,"text":`...)
				b = appendString(b, c.Text)
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
			b = appendString(b, r.CacheScope)
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
		b = appendString(b, c.Type)
		b = append(b, `,"text":`...)
		b = appendString(b, c.Text)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendResultMeta appends a modern result's decorations, if any, and the
// brace that closes the result.
func appendResultMeta(b []byte, m *resultMeta) []byte {
	if m.ResultType != "" {
		b = append(b, `,"resultType":`...)
		b = appendString(b, m.ResultType)
	}
	if m.Meta != nil {
		b = append(b, `,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":`...)
		b = appendString(b, m.Meta.ServerInfo.Name)
		b = append(b, `,"version":`...)
		b = appendString(b, m.Meta.ServerInfo.Version)
		b = append(b, "}}"...)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: quotes, backslashes and control
// characters, U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
