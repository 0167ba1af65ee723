package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// The benchmarks below time one request line to one response line in
// process: decode, classify, schema validation, the handler and encode,
// against servers built like the chapters. Run them with
//
//	go test -run '^$' -bench . -benchmem ./mcp/

// benchCatalog is the chapters' catalog.
var benchCatalog = map[string]string{"Dune": "Frank Herbert", "Neuromancer": "William Gibson"}

// benchAuthorArgs is chapter 01's argument type.
type benchAuthorArgs struct {
	Title string `json:"title" jsonschema:"the exact title of the book"`
}

// benchLogger formats every log line, as the default logger does, and
// discards it, so logging costs what it costs in production but the
// benchmark output stays clean.
var benchLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// newBenchToolServer returns a server built like chapter 01.
func newBenchToolServer() *Server {
	s := NewServer("Bookshop", "1.0.0", &Options{Logger: benchLogger})
	AddTool(s, Tool{Name: "get_author", Description: "Look up the author of a book in the catalog."},
		func(ctx context.Context, args benchAuthorArgs) (string, error) {
			author, ok := benchCatalog[args.Title]
			if !ok {
				return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
			}
			return author, nil
		})
	return s
}

// newBenchResourceServer returns a server built like chapter 03.
func newBenchResourceServer() *Server {
	s := NewServer("Bookshop", "1.0.0", &Options{Logger: benchLogger})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "books://{title}", Name: "book"},
		func(ctx context.Context, req *ResourceRequest) (string, error) {
			title := req.Params["title"]
			author, ok := benchCatalog[title]
			if !ok {
				return "", ResourceNotFound("No book titled '%s' in the catalog.", title)
			}
			return title + " by " + author, nil
		})
	return s
}

// benchCall returns a tools/call line for get_author with the given
// arguments, in the modern era or the legacy one.
func benchCall(args string, modern bool) []byte {
	meta := ""
	if modern {
		meta = mcptest.Meta + ","
	}
	return []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{` + meta + `"name":"get_author","arguments":` + args + `}}`)
}

// benchRead returns a resources/read line for uri.
func benchRead(uri string, modern bool) []byte {
	meta := ""
	if modern {
		meta = mcptest.Meta + ","
	}
	return []byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{` + meta + `"uri":"` + uri + `"}}`)
}

// benchLine times line to response through a Session, as InProcess serves
// a request and as the stream loop does (without the goroutine it runs a
// handler in; BenchmarkServeLine includes that), and checks once that the
// response contains want. A legacy session is first initialized at
// 2025-11-25 by a real initialize request.
func benchLine(b *testing.B, s *Server, modern bool, line []byte, want string) {
	ctx := context.Background()
	session := s.NewSession()
	if !modern {
		resp := session.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`))
		if !bytes.Contains(resp, []byte(`"result"`)) {
			b.Fatalf("initialize failed: %s", resp)
		}
	}
	if resp := session.Handle(ctx, line); !bytes.Contains(resp, []byte(want)) {
		b.Fatalf("response\n%s\ndoes not contain\n%s", resp, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		session.Handle(ctx, line)
	}
}

const (
	wantDune    = `"text":"Frank Herbert"`
	wantNothing = `"text":"Error executing tool get_author: No book titled 'Nothing' in the catalog."}],"isError":true`
	wantInvalid = `"text":"Error executing tool get_author: /title: expected a string, got the number 42"}],"isError":true`
)

func BenchmarkToolsCall(b *testing.B) {
	s := newBenchToolServer()
	for _, era := range []struct {
		name   string
		modern bool
	}{{"legacy", false}, {"modern", true}} {
		b.Run("success/"+era.name, func(b *testing.B) {
			benchLine(b, s, era.modern, benchCall(`{"title":"Dune"}`, era.modern), wantDune)
		})
		b.Run("toolError/"+era.name, func(b *testing.B) {
			benchLine(b, s, era.modern, benchCall(`{"title":"Nothing"}`, era.modern), wantNothing)
		})
		b.Run("invalid/"+era.name, func(b *testing.B) {
			benchLine(b, s, era.modern, benchCall(`{"title":42}`, era.modern), wantInvalid)
		})
	}
}

func BenchmarkResourcesRead(b *testing.B) {
	s := newBenchResourceServer()
	for _, era := range []struct {
		name   string
		modern bool
	}{{"legacy", false}, {"modern", true}} {
		b.Run("success/"+era.name, func(b *testing.B) {
			benchLine(b, s, era.modern, benchRead("books://Dune", era.modern), `"text":"Dune by Frank Herbert"`)
		})
		b.Run("notFound/"+era.name, func(b *testing.B) {
			benchLine(b, s, era.modern, benchRead("books://Nothing", era.modern), `"data":{"uri":"books://Nothing"}`)
		})
	}
}

// BenchmarkServeLine times a legacy tools/call through the stream loop's
// serveLine, which runs the handler watched by the handoff, and the write
// of the response.
func BenchmarkServeLine(b *testing.B) {
	s := newBenchToolServer()
	var out bytes.Buffer
	ctx := context.Background()
	c := newConn(ctx, s, nil, &out)
	c.cs.version = LatestLegacyVersion
	line := append(benchCall(`{"title":"Dune"}`, false), '\n')
	c.handoff = newHandoff(handoffDelay, func() {}) // a handler held up for 1 ms on a busy machine hands off to no one
	c.serveLine(ctx, line)
	if !bytes.Contains(out.Bytes(), []byte(wantDune)) {
		b.Fatalf("response %s does not contain %s", out.Bytes(), wantDune)
	}
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		c.serveLine(ctx, line)
	}
}
