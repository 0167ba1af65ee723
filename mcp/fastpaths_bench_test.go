package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
	"github.com/mcpbookshop/guide/mcp/internal/schema"
)

// BenchmarkFastPaths times each fast path of one stdio tools/call beside
// the plain way it replaces, as pairs of sub-benchmarks: fast and plain.
// The page "Inside the core" (docs/inside-the-core) quotes them, and names
// the tests that hold each pair to the same bytes.
//
//	go test -run '^$' -bench FastPaths -benchmem -count 5 ./mcp/
func BenchmarkFastPaths(b *testing.B) {
	line := benchCall(`{"title":"Dune"}`, true)
	b.Run("scan/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonwire.DecodeMessage(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m jsonwire.Message
			if err := json.Unmarshal(line, &m); err != nil {
				b.Fatal(err)
			}
		}
	})

	in, err := jsonschema.For[benchAuthorArgs](nil)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"title":"Dune"}`)
	checker, dec := schema.Compile(in), jsonwire.NewDecoder[benchAuthorArgs]()
	tree, _ := jsonwire.ScanValue(args)
	b.Run("arguments/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var a benchAuthorArgs
			if msg := checker.Check(args, tree); msg != "" {
				b.Fatal(msg)
			}
			if err := dec.Decode(tree, args, &a); err != nil || a.Title != "Dune" {
				b.Fatal(err)
			}
		}
	})
	resolved, err := in.Resolve(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("arguments/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			var a benchAuthorArgs
			if err := json.Unmarshal(args, &v); err != nil {
				b.Fatal(err)
			}
			if err := resolved.Validate(v); err != nil {
				b.Fatal(err)
			}
			if err := json.Unmarshal(args, &a); err != nil || a.Title != "Dune" {
				b.Fatal(err)
			}
		}
	})

	s := newBenchToolServer()
	ctx := context.Background()
	c := newConn(ctx, s, nil, io.Discard)
	c.handoff = newHandoff(handoffDelay, func() {}) // a handler held up on a busy machine hands off to no one
	b.Run("reader/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.serveLine(ctx, line)
		}
	})
	b.Run("reader/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			done := make(chan struct{})
			go func() { c.serveLine(ctx, line); close(done) }()
			<-done
		}
	})

	input := bytes.Repeat(append(bytes.Clone(line), '\n'), 64)
	b.Run("lines/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := newLineReader(bytes.NewReader(input), DefaultMaxLineBytes)
			for {
				if _, err := r.next(); err != nil {
					break
				}
			}
		}
	})
	b.Run("lines/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := bufio.NewReaderSize(bytes.NewReader(input), lineBufferSize)
			for {
				if _, err := r.ReadBytes('\n'); err != nil {
					break
				}
			}
		}
	})

	b.Run("text/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			errToolError.text("get_author", "No book titled 'Nothing' in the catalog.")
		}
	})
	b.Run("text/plain", func(b *testing.B) {
		b.ReportAllocs()
		tmpl := errToolError.row().message
		for b.Loop() {
			strings.NewReplacer("<name>", "get_author", "<err>", "No book titled 'Nothing' in the catalog.").Replace(tmpl)
		}
	})

	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	logLine := []byte(`time=2026-07-28T12:00:00.000Z level=INFO msg="tool error" tool=get_author error="No book titled 'Nothing' in the catalog."` + "\n")
	b.Run("log/fast", func(b *testing.B) {
		w := newLogWriter(devNull, logFlushDelay)
		defer w.Flush()
		b.ReportAllocs()
		for b.Loop() {
			w.Write(logLine)
		}
	})
	b.Run("log/plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			devNull.Write(logLine)
		}
	})
}
