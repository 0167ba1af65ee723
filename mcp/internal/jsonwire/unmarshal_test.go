package jsonwire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// authorArgs is chapter 01's argument type, as the typed decode reads it.
type authorArgs struct {
	Title string `json:"title"`
}

// TestUnmarshalMatchesEncodingJSON checks that Unmarshal gives what
// encoding/json gives, value and error text, into each type it serves,
// names matched exactly (see exactJSON).
func TestUnmarshalMatchesEncodingJSON(t *testing.T) {
	for _, line := range edgeLines {
		data := []byte(line)
		checkUnmarshal[Message](t, data)
		checkUnmarshal[authorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	}
}

func checkUnmarshal[T any](t *testing.T, data []byte) {
	t.Helper()
	var got, want T
	gotErr := Unmarshal(data, &got)
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
		"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities", "traceparent", "tracestate", "title"}
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

// BenchmarkUnmarshalEngines compares the two engines Unmarshal uses, on a
// tools/call line and on its arguments. When Unmarshal was written, the v2
// engine decoded the line about twice as fast as encoding/json, with 6
// allocations instead of 16, and the arguments into their struct with 1
// instead of 6.
func BenchmarkUnmarshalEngines(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"}}}`)
	args := []byte(`{"title":"Dune"}`)
	b.Run("message/unmarshal", func(b *testing.B) { benchUnmarshal[Message](b, line, Unmarshal) })
	b.Run("message/encoding-json", func(b *testing.B) { benchUnmarshal[Message](b, line, stdUnmarshal) })
	b.Run("any/unmarshal", func(b *testing.B) { benchUnmarshal[any](b, args, Unmarshal) })
	b.Run("any/encoding-json", func(b *testing.B) { benchUnmarshal[any](b, args, stdUnmarshal) })
	b.Run("args/unmarshal", func(b *testing.B) { benchUnmarshal[authorArgs](b, args, Unmarshal) })
	b.Run("args/encoding-json", func(b *testing.B) { benchUnmarshal[authorArgs](b, args, stdUnmarshal) })
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

// FuzzUnmarshal looks for a line on which Unmarshal and encoding/json
// differ: go test -run '^$' -fuzz FuzzUnmarshal ./mcp/internal/jsonwire/
func FuzzUnmarshal(f *testing.F) {
	for _, line := range edgeLines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkUnmarshal[Message](t, data)
		checkUnmarshal[authorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	})
}
