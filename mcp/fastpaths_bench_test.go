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
	"github.com/mcpbookshop/guide/internal/jsonwire"
	"github.com/mcpbookshop/guide/mcp/internal/schema"
)

// BenchmarkFastPaths times each fast path of one stdio tools/call beside
// the plain way it replaces, as pairs of sub-benchmarks: fast and plain.
// The page "Inside the core" (docs/inside-the-core) follows one call
// through them and quotes the figures.
//
//	go test -run '^$' -bench FastPaths -benchmem -count 5 ./mcp/
//
// These are all the core's fast paths, each with the tests that hold it to
// the plain way and the benchmarks that time it. A change to one keeps its
// tests passing and compares its benchmarks before and after, over several
// runs each, as single figures on a busy machine swing. Besides the pairs
// here, BenchmarkToolsCall and BenchmarkResourcesRead time a whole call in
// process, the benchmarks of parts_bench_test.go show where its time goes,
// and BenchmarkHTTPFloor sets the HTTP server beside a plain net/http
// handler.
//
//   - Lines read in place (lines.go's lineReader): a line that fits the
//     read buffer is served from it, without a copy. Held by
//     TestLineReader, TestServeLineTooLong and TestServeLineWithinLimit;
//     timed by lines; TestSoakStdio, run with -soak, bounds its memory.
//   - Lines scanned without reflection (internal/jsonwire's scan.go and
//     decode.go): a plain request line is scanned in one pass into the
//     message, its params and a tree of its arguments; any other line is
//     decoded by jsonwire.Unmarshal, with encoding/json's rules and error
//     texts. Held by TestScanMessageMatchesUnmarshal, FuzzScanMessage,
//     TestUnmarshalMatchesEncodingJSON and FuzzServeLines; timed by scan
//     and BenchmarkDecode.
//   - Handlers run by the reader (stream.go's conn and handoff): the
//     goroutine reading a stream runs each handler itself, and hands
//     reading over to a new goroutine when a handler outlasts
//     handoffDelay. Held by TestHandoffOfALongHandler,
//     TestHandoffOneReaderAtATime, TestServeHandoffUnderLoad and
//     TestServeCancelAfterQuickCalls; timed by reader and
//     BenchmarkServeLine.
//   - Arguments read once (internal/schema, jsonwire.Decoder): the schema
//     checker reads the scanner's tree, and the arguments are filled into
//     the tool's Go type from that same tree; what the tree cannot fill as
//     Unmarshal would is left to Unmarshal. Held by
//     TestScanValueMatchesEncodingJSON, FuzzScanValue,
//     TestDecoderMatchesUnmarshal, FuzzDecoder, TestSchemaMessages and
//     FuzzToolArguments; timed by arguments, BenchmarkSchemaCheck and
//     BenchmarkToolsCall.
//   - Results written by hand (jsonrpc.go's appendResult): a tool result
//     without structured content, a resource read and an [Error] are
//     appended to the response line directly. Held by
//     TestAppendJSONMatchesEncodingJSON, FuzzAppendResult and
//     TestAppendResultWritesEveryField, which sets every field of those
//     types by reflection; timed by BenchmarkAppendResult and
//     BenchmarkEncodeResult.
//   - Error texts filled in one allocation (errortable.go's fillText).
//     Held by TestErrorFill and every pinned tool error; timed by text
//     and BenchmarkToolsCall's toolError.
//   - Log lines gathered (logwriter.go's logWriter): the default logger's
//     lines are written together, a few milliseconds apart, instead of a
//     system call each. Held by TestLogWriterGathersLines,
//     TestLogWriterFlushesAfterTheDelay and TestServeFlushesTheDefaultLog;
//     timed by log and BenchmarkHTTPFloor's toolError.
//   - Recycled buffers (jsonrpc.go's bufPool, http.go's bodyPool): response
//     lines and HTTP request bodies are built in pooled buffers. Held by
//     TestBodyBufferRead and the HTTP tests; timed by BenchmarkEncodeResult
//     and BenchmarkHTTPFloor.
//   - The usual headers taken whole (http_check.go's checkMedia): the
//     Accept and Content-Type that clients send are compared as they are,
//     before any parsing. Held by TestHTTPAllowed and TestHTTPErrorPaths;
//     timed by BenchmarkHTTPFloor.
//   - URI templates matched by a compiled scan (internal/urimatch), for the
//     simple templates servers usually register; the template library
//     matches the rest. Held by TestTemplateMatchAsTheLibrary,
//     FuzzTemplateMatch and FuzzURITemplate; timed by
//     BenchmarkTemplateMatch and BenchmarkResourcesRead.
//   - Startup: tool names are checked without a regular expression
//     (TestValidToolName), and a tool's schemas are marshalled by the first
//     tools/list, not by [AddTool].
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
