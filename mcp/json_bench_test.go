package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
)

// unmarshalCases are lines on which jsonwire.Unmarshal's fast engine and
// encoding/json could part ways: case-insensitive and duplicate names,
// invalid UTF-8, escapes, wrong types, trailing data, big numbers.
var unmarshalCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"}}}`,
	`{"JSONRPC":"2.0","ID":1,"Method":"tools/call","PARAMS":{"NAME":"x","Arguments":{}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"a","method":"b","params":{"name":"x","name":"y"}}`,
	`{"jsonrpc":"2.0","id":"\u00e9\ud83d\ude00","method":"tools/call","params":{"name":"caf\u00e9"}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\",\"params\":{\"name\":\"a\xc0b\"}}",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":42}}`,
	`{"jsonrpc":2,"id":1,"method":"tools/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`,
	`{"jsonrpc":"2.0","id":null,"method":null}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"x","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} trailing`,
	`{"jsonrpc":"2.0","id":1,"method":"x"`,
	`[{"jsonrpc":"2.0"}]`,
	`"just a string"`,
	`{"title":"Dune","extra":[1,{"a":null}],"n":-0.5e-3}`,
	`{"title":42}`,
	`{"Title":"Dune"}`,
	`{"title":"Dune","title":"Neuromancer"}`,
	`{"title":"a\u0000b\\n\"c"}`,
	`{"title":null}`,
	`{}`,
	`null`,
	``,
	`{"jsonrpc":"2.0","id":"a\"b","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":[1,"]}"]},"clientInfo":{"name":"c","version":"1"}}}`,
	` { "jsonrpc" : "2.0" , "id" : -1.5e3 , "method" : "tools/call" , "params" : { "name" : "t" , "arguments" : { } } } `,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_META":{"io.modelcontextprotocol/protocolversion":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1","reason":"user"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":[true,false,null]},"error":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"uri":"a\\b","name":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","extra":{"method":"y"},"params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":[{"a":"}"},"\\"",[]]}}`,
	`{"jsonrpc":"2.0","id":true,"method":"x","params":"p"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","\u006dethod":"y"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"é😀"}}`,
}

// TestUnmarshalMatchesEncodingJSON checks that jsonwire.Unmarshal gives what
// encoding/json gives, value and error text, into each type it serves,
// names matched exactly (see exactJSON).
func TestUnmarshalMatchesEncodingJSON(t *testing.T) {
	for _, line := range unmarshalCases {
		data := []byte(line)
		checkUnmarshal[message](t, data)
		checkUnmarshal[benchAuthorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	}
}

func checkUnmarshal[T any](t *testing.T, data []byte) {
	t.Helper()
	var got, want T
	gotErr := jsonwire.Unmarshal(data, &got)
	ref := data
	if reflect.TypeFor[T]().Kind() == reflect.Struct { // whose fields match names
		ref = exactJSON(data)
	}
	wantErr := json.Unmarshal(ref, &want)
	if !reflect.DeepEqual(got, want) || errText(gotErr) != errText(wantErr) {
		t.Errorf("unmarshal(%q) into %T = %+v, %v; encoding/json gives %+v, %v", data, got, got, gotErr, want, wantErr)
	}
}

// exactJSON returns data with every member name that differs only in case
// from a field name the tests decode into renamed to an unrelated one
// ("Id" to "~Id"), so that encoding/json, which matches names in any case,
// reads it as a decoder matching names exactly reads data. Data that is
// not valid JSON is returned as it is.
func exactJSON(data []byte) []byte {
	fields := []string{"jsonrpc", "id", "method", "params", "result", "error", // message
		"_meta", "protocolVersion", "name", "arguments", "uri", "requestId", // params
		"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities", "title"}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var out []byte
	last := 0
	for {
		start := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		// A name is a string that makes an object's length odd.
		if kind, n := dec.StackIndex(dec.StackDepth()); tok.Kind() != '"' || kind != '{' || n%2 == 0 {
			continue
		}
		name := tok.String()
		if slices.Contains(fields, name) || !slices.ContainsFunc(fields, func(f string) bool { return strings.EqualFold(f, name) }) {
			continue
		}
		quote := int(start) + bytes.IndexByte(data[start:], '"')
		out = append(append(out, data[last:quote+1]...), '~')
		last = quote + 1
	}
	if last == 0 {
		return data
	}
	return append(out, data[last:]...)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// BenchmarkUnmarshalEngines compares the two engines jsonwire.Unmarshal uses, on a
// tools/call line and on its arguments.
func BenchmarkUnmarshalEngines(b *testing.B) {
	line := benchCall(`{"title":"Dune"}`, false)
	args := []byte(`{"title":"Dune"}`)
	b.Run("message/unmarshal", func(b *testing.B) { benchUnmarshal[message](b, line, jsonwire.Unmarshal) })
	b.Run("message/encoding-json", func(b *testing.B) { benchUnmarshal[message](b, line, stdUnmarshal) })
	b.Run("any/unmarshal", func(b *testing.B) { benchUnmarshal[any](b, args, jsonwire.Unmarshal) })
	b.Run("any/encoding-json", func(b *testing.B) { benchUnmarshal[any](b, args, stdUnmarshal) })
	b.Run("args/unmarshal", func(b *testing.B) { benchUnmarshal[benchAuthorArgs](b, args, jsonwire.Unmarshal) })
	b.Run("args/encoding-json", func(b *testing.B) { benchUnmarshal[benchAuthorArgs](b, args, stdUnmarshal) })
}

func stdUnmarshal[T any](data []byte, v *T) error { return json.Unmarshal(data, v) }

func benchUnmarshal[T any](b *testing.B, data []byte, f func([]byte, *T) error) {
	b.ReportAllocs()
	for b.Loop() {
		var v T
		if err := f(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzUnmarshal looks for a line on which jsonwire.Unmarshal and encoding/json
// differ: go test -run '^$' -fuzz FuzzUnmarshal ./mcp/
func FuzzUnmarshal(f *testing.F) {
	for _, line := range unmarshalCases {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkUnmarshal[message](t, data)
		checkUnmarshal[benchAuthorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	})
}
