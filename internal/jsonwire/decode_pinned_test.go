package jsonwire_test

import (
	"bytes"
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// pinnedLines returns the lines the clients send in the chapters' pinned
// scripts (testdata/scripts/*/*.txtar, files req/*).
func pinnedLines(t testing.TB) [][]byte {
	reqs, err := exchange.PinnedRequests("../../testdata/scripts")
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	for _, req := range reqs {
		for line := range bytes.Lines(req) {
			lines = append(lines, bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	return lines
}

// TestScanMessageMatchesUnmarshal checks scanMessage against Unmarshal
// on the cases and the pinned lines, which must all be scanned.
func TestScanMessageMatchesUnmarshal(t *testing.T) {
	for _, line := range jsonwire.EdgeLines {
		jsonwire.CheckScanMessage(t, []byte(line))
	}
	for _, line := range pinnedLines(t) {
		if !jsonwire.CheckScanMessage(t, line) && jsonwire.PlainLine(line) {
			t.Errorf("pinned line %q not scanned", line)
		}
	}
}

// FuzzScanMessage looks for a line that scanMessage decodes otherwise
// than Unmarshal: go test -run '^$' -fuzz FuzzScanMessage ./internal/jsonwire/
func FuzzScanMessage(f *testing.F) {
	for _, line := range jsonwire.EdgeLines {
		f.Add([]byte(line))
	}
	for _, line := range pinnedLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { jsonwire.CheckScanMessage(t, line) })
}
