package jsonwire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// validJSON reports whether data is valid JSON in valid UTF-8, whose
// escapes may stand for lone surrogates (as encoding/json takes them),
// and whose objects may give a name twice when repeats is true.
func validJSON(data []byte, repeats bool) bool {
	return utf8.Valid(data) && jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(repeats))
}

// nested returns how deep a valid JSON text nests.
func nested(v []byte) int {
	depth, most := 0, 0
	dec := jsontext.NewDecoder(bytes.NewReader(v), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return most
		}
		switch tok.Kind() {
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth--
		}
	}
}

// checkValue fails unless v is raw scanned, plain exactly when raw gives
// each name once and encoding/json decodes it into an interface value,
// and then read as that value.
func checkValue(t *testing.T, raw []byte, v Value) {
	t.Helper()
	if v.t == nil || v.Text() != string(raw) {
		t.Fatalf("%q scanned as %+v", raw, v)
	}
	var want any
	err := json.Unmarshal(raw, &want)
	if plain := err == nil && validJSON(raw, false); v.Plain() != plain {
		t.Fatalf("ScanValue(%q).Plain() = %v; encoding/json: %v, names given once: %v", raw, v.Plain(), err, validJSON(raw, false))
	}
	if got := toAny(v); v.Plain() && !reflect.DeepEqual(got, want) {
		t.Errorf("ScanValue(%q) reads as %#v; encoding/json gives %#v", raw, got, want)
	}
}

// toAny returns v as encoding/json decodes it into an interface value.
func toAny(v Value) any {
	switch v.Kind() {
	case '{':
		m := map[string]any{}
		for name, e := range v.Members() {
			m[name] = toAny(e)
		}
		return m
	case '[':
		a := []any{}
		for _, e := range v.Elems() {
			a = append(a, toAny(e))
		}
		return a
	case '"':
		return v.Str()
	case '0':
		return v.Float()
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// TestScanValueMatchesEncodingJSON checks ScanValue against encoding/json.
func TestScanValueMatchesEncodingJSON(t *testing.T) {
	for _, line := range edgeLines {
		checkScanValue(t, []byte(line))
	}
}

// checkScanValue fails unless ScanValue takes data exactly when it is
// valid JSON in valid UTF-8, nested less than a thousand deep, and reads
// it as encoding/json does.
func checkScanValue(t *testing.T, data []byte) {
	t.Helper()
	v, ok := ScanValue(data)
	valid := validJSON(data, true) && nested(data) <= maxDepth
	if ok != valid {
		t.Fatalf("ScanValue(%q) reports %v; valid: %v", data, ok, valid)
	}
	if ok {
		checkValue(t, bytes.TrimSpace(data), v)
	}
}

// FuzzScanValue looks for a text that ScanValue reads otherwise than
// encoding/json: go test -run '^$' -fuzz FuzzScanValue ./internal/jsonwire/
func FuzzScanValue(f *testing.F) {
	for _, line := range edgeLines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScanValue(t, data) })
}
