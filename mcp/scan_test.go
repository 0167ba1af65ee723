package mcp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// scanCases add to unmarshalCases lines that scanMessage must read, or
// leave to unmarshal, exactly as encoding/json would.
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
	if err := json.Unmarshal(data, &want); err != nil {
		t.Errorf("scanMessage(%s) read a line encoding/json rejects: %v", data, err)
		return true
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
