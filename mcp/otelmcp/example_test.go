package otelmcp_test

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

// A server whose requests are spans: a tool error is error.type
// "tool_error", a protocol error its JSON-RPC code, each with the status
// ERROR and the message the client read. A program would export the spans
// (over OTLP, say) where this example keeps them in memory to print them.
func Example() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())
	rec, err := otelmcp.New(&otelmcp.Options{TracerProvider: tp})
	if err != nil {
		log.Fatal(err)
	}

	s := mcp.NewServer("Bookshop", "1.0.0", &mcp.Options{Observe: rec.Observe, Logger: slog.New(slog.DiscardHandler)})
	mcp.AddTool(s, mcp.Tool{Name: "get_author"}, func(ctx context.Context, args struct {
		Title string `json:"title"`
	}) (string, error) {
		if args.Title != "Dune" {
			return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
		}
		return "Frank Herbert", nil
	})

	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	sess := s.NewSession()
	for _, args := range []string{`"arguments":{"title":"Dune"}`, `"arguments":{"title":"Nothing"}`, `"arguments":[]`} {
		sess.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author",`+args+`,`+meta+`}}`))
	}
	for _, sp := range spans.GetSpans() {
		var errorType string
		for _, kv := range sp.Attributes {
			if kv.Key == otelmcp.ErrorTypeKey {
				errorType = kv.Value.AsString()
			}
		}
		fmt.Printf("%s | error.type %q | %s %q\n", sp.Name, errorType, sp.Status.Code, sp.Status.Description)
	}
	// Output:
	// tools/call get_author | error.type "" | Unset ""
	// tools/call get_author | error.type "tool_error" | Error "Error executing tool get_author: No book titled 'Nothing' in the catalog."
	// tools/call get_author | error.type "-32602" | Error "Invalid params"
}
