package mcp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// scanCases add to unmarshalCases lines that scanMessage must read, or
// leave to unmarshal, exactly as encoding/json would, names matched
// exactly (see exactJSON).
var scanCases = []string{
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

// TestScanMessageMatchesEncodingJSON checks that every line scanMessage
// reads, it reads as encoding/json does, and that it reads the plain ones.
func TestScanMessageMatchesEncodingJSON(t *testing.T) {
	scanned := 0
	for _, line := range append(unmarshalCases, scanCases...) {
		if checkScan(t, []byte(line)) {
			scanned++
		}
	}
	if scanned < len(scanCases)/2 {
		t.Errorf("scanMessage read only %d of the lines", scanned)
	}
	if !checkScan(t, benchCall(`{"title":"Dune"}`, true)) {
		t.Errorf("scanMessage left a plain tools/call line to unmarshal")
	}
}

// checkScan compares scanMessage with encoding/json on data and reports
// whether scanMessage read it.
func checkScan(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := scanMessage(data)
	if !ok {
		return false
	}
	var want message
	if err := json.Unmarshal(exactJSON(data), &want); err != nil {
		t.Errorf("scanMessage(%s) read a line encoding/json rejects: %v", data, err)
		return true
	}
	if p := got.Params; p != nil {
		if p.validArguments != (p.Arguments != nil) {
			t.Errorf("scanMessage(%s): validArguments %v for arguments %s", data, p.validArguments, p.Arguments)
		}
		p.validArguments = false // encoding/json knows nothing of it
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("scanMessage(%s) = %+v; encoding/json gives %+v", data, *got, want)
	}
	return true
}

// FuzzScanMessage looks for a line scanMessage reads differently from
// encoding/json: go test -run '^$' -fuzz FuzzScanMessage ./mcp/
func FuzzScanMessage(f *testing.F) {
	for _, line := range append(unmarshalCases, scanCases...) {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// valueCases add to unmarshalCases argument texts that scanValue must
// read, or leave to encoding/json, exactly as encoding/json would.
var valueCases = []string{
	`{"a":[],"b":{},"c":[1,-2.5e-3,"x",true,false,null,{"d":[[]]}],"e":""}`,
	`{"a":1,"a":2}`,
	` [ 1 , { "k" : "v" } ] `,
	`1e400`,
	`-0`,
	`"a\u00e9"`,
	`{"a\"b":1}`,
	`123456789012345678901234567890`,
	`{"title":"Dune","extra":null}`,
}

// TestScanValueMatchesEncodingJSON checks that every text scanValue reads,
// it reads as encoding/json reads it into an interface value.
func TestScanValueMatchesEncodingJSON(t *testing.T) {
	scanned := 0
	for _, text := range append(unmarshalCases, valueCases...) {
		if checkScanValue(t, []byte(text)) {
			scanned++
		}
	}
	if scanned < len(valueCases)/2 {
		t.Errorf("scanValue read only %d of the texts", scanned)
	}
}

// checkScanValue compares scanValue with encoding/json on data and reports
// whether scanValue read it.
func checkScanValue(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := scanValue(data, false)
	if !ok {
		return false
	}
	var want any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Errorf("scanValue(%s) read a text encoding/json rejects: %v", data, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scanValue(%s) = %#v; encoding/json gives %#v", data, got, want)
	}
	return true
}

// FuzzScanValue looks for a text scanValue reads differently from
// encoding/json: go test -run '^$' -fuzz FuzzScanValue ./mcp/
func FuzzScanValue(f *testing.F) {
	for _, text := range append(unmarshalCases, valueCases...) {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScanValue(t, data) })
}

// BenchmarkScanValue compares scanValue with encoding/json on chapter 01's
// arguments.
func BenchmarkScanValue(b *testing.B) {
	args := []byte(`{"title":"Dune"}`)
	b.Run("scanValue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := scanValue(args, false); !ok {
				b.Fatal("scanValue failed")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(args, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
