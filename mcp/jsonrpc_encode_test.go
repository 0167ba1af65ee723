package mcp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// encodeCases are texts that exercise every escape.
var encodeCases = []string{
	"", "Frank Herbert", `a "quoted" \ back`, "\x00\x01\b\f\n\r\t\x1f\x7f", "<b>&amp;</b>",
	"café 😀", "\u2028\u2029", "a\xffb\xc3", "\xed\xa0\x80", "No book titled 'Nothing' in the catalog.",
}

// checkAppendResult compares appendResult with encoding/json on results
// carrying text.
func checkAppendResult(t *testing.T, text string) {
	t.Helper()
	ttl := int64(1500)
	meta := resultMeta{ResultType: "complete", Meta: &serverMeta{implementation{text, text}}}
	for _, v := range []any{
		&callToolWire{&CallToolResult{Content: []Content{TextContent(text)}}, resultMeta{}},
		&callToolWire{&CallToolResult{Content: []Content{TextContent(text), {Type: text, Text: "x"}}, IsError: true}, meta},
		&callToolWire{&CallToolResult{}, meta},
		&readResourceResult{Contents: []ResourceContents{{URI: text, MIMEType: text, Text: text}}},
		&readResourceResult{Contents: []ResourceContents{{URI: "u", Text: text}, {URI: text}}, resultMeta: meta, cacheable: cacheable{TTLMs: &ttl, CacheScope: text}},
		&readResourceResult{},
		&Error{Code: CodeInvalidParams, Message: text},
		&Error{Code: -1, Message: text, Data: text},
		&Error{Code: CodeInternalError, Message: "m", Data: json.RawMessage(" {\"uri\" : " + string(jsonwire.AppendString(nil, text)) + ",\n\"n\":[1, 2]}")},
	} {
		got, ok := appendResult(nil, v)
		if !ok {
			t.Fatalf("appendResult(%#v) declined", v)
		}
		var want bytes.Buffer
		if err := encodeValue(&want, v); err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Errorf("appendResult: %s\nencoding/json: %s", got, want.String())
		}
	}
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for _, text := range encodeCases {
		checkAppendResult(t, text)
	}
	if _, ok := appendResult(nil, &callToolWire{&CallToolResult{StructuredContent: map[string]any{}}, resultMeta{}}); ok {
		t.Errorf("appendResult encoded a structured result")
	}
	for _, data := range []any{map[string]int{"n": 1}, json.RawMessage(`{"a":`), json.RawMessage{}} {
		if _, ok := appendResult(nil, &Error{Code: 1, Message: "m", Data: data}); ok {
			t.Errorf("appendResult encoded an error with data %#v, which encoding/json encodes or refuses", data)
		}
	}
}

// FuzzAppendResult looks for a text that appendResult encodes differently
// from encoding/json: go test -run '^$' -fuzz FuzzAppendResult ./mcp/
func FuzzAppendResult(f *testing.F) {
	for _, text := range encodeCases {
		f.Add(text)
	}
	f.Fuzz(checkAppendResult)
}

// BenchmarkAppendResult compares appendResult with encoding/json on
// chapter 01's modern result. When appendResult was written, it took a
// fifth of encoding/json's time there.
func BenchmarkAppendResult(b *testing.B) {
	v := &callToolWire{&CallToolResult{Content: []Content{TextContent("Frank Herbert")}}, resultMeta{ResultType: "complete", Meta: &serverMeta{implementation{"Bookshop", "1.0.0"}}}}
	var buf bytes.Buffer
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			out, _ := appendResult(buf.AvailableBuffer(), v)
			buf.Write(out)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			encodeValue(&buf, v)
		}
	})
}
