package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/otelmcp"
)

// Each request is a span, by the OpenTelemetry conventions for MCP: a tool
// error has error.type "tool_error", a protocol error its JSON-RPC code,
// and a panic is a tool error whose description is the bare text the
// model read; each span's status is Error, described by what the client
// got. The example keeps the spans in memory to print them, and adds a
// tool that panics to the chapter's server, to show one.
func Example_traces() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())
	rec, err := otelmcp.New(&otelmcp.Options{TracerProvider: tp})
	if err != nil {
		log.Fatal(err)
	}
	s := newServer(&mcp.Options{Observe: rec.Observe, Logger: slog.New(slog.DiscardHandler)})
	mcp.AddTool(s, mcp.Tool{Name: "crash"}, func(ctx context.Context, _ struct{}) (string, error) {
		var shelves []int
		return fmt.Sprint(shelves[3]), nil
	})

	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	sess := s.NewSession()
	for _, call := range []string{
		`"name":"order_book","arguments":{"title":"Neuromancer","copies":5}`,
		`"name":"order_bok","arguments":{}`,
		`"name":"crash","arguments":{}`,
	} {
		sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+call+`,`+meta+`}}`))
	}
	for _, sp := range spans.GetSpans() {
		var errorType string
		for _, kv := range sp.Attributes {
			if kv.Key == otelmcp.ErrorTypeKey {
				errorType = kv.Value.AsString()
			}
		}
		fmt.Printf("%s\n  error.type %s, status %s: %s\n", sp.Name, errorType, sp.Status.Code, sp.Status.Description)
	}
	// Output:
	// tools/call order_book
	//   error.type tool_error, status Error: Error executing tool order_book: The warehouse holds 1 of 'Neuromancer'; order at most that many.
	// tools/call order_bok
	//   error.type -32602, status Error: Unknown tool: order_bok
	// tools/call crash
	//   error.type tool_error, status Error: Error executing tool crash
}
