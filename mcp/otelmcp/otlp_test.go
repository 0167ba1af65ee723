package otelmcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// otlpReceiver is a loopback OTLP/HTTP receiver of traces: it decodes each
// export request's protobuf body and sends its spans on spans.
func otlpReceiver(t *testing.T, spans chan<- *tracepb.Span) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the receiver got %s %s, Content-Type %q (%v)", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "want a protobuf export to /v1/traces", http.StatusBadRequest)
			return
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			t.Errorf("the receiver cannot decode the export: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					spans <- sp
				}
			}
		}
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
}

// A tool error reaches an OTLP/HTTP receiver, through the SDK's exporter
// and batching span processor, as the span the conventions describe.
func TestToolErrorOverOTLP(t *testing.T) {
	received := make(chan *tracepb.Span, 16)
	rcv := otlpReceiver(t, received)
	defer rcv.Close()
	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(rcv.URL+"/v1/traces"),
		otlptracehttp.WithCompression(otlptracehttp.NoCompression))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	rec, err := New(&Options{TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	c := serveStdio(t, newServer(rec.Observe, nil))
	c.call(mcptest.ToolCall("1", "echo", `{"text":""}`))
	sctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	if err := tp.Shutdown(sctx); err != nil { // flushes the batch
		t.Fatalf("shutting the tracer provider down: %v", err)
	}

	var sp *tracepb.Span
	select {
	case sp = <-received:
	case <-time.After(testTimeout):
		t.Fatal("the receiver got no span")
	}
	got := map[string]string{}
	for _, kv := range sp.Attributes {
		got[kv.Key] = kv.Value.GetStringValue()
	}
	const message = "Error executing tool echo: nothing to echo"
	if sp.Name != "tools/call echo" || sp.Kind != tracepb.Span_SPAN_KIND_SERVER || got["error.type"] != "tool_error" ||
		got["mcp.method.name"] != "tools/call" || got["gen_ai.tool.name"] != "echo" ||
		sp.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || sp.Status.GetMessage() != message {
		t.Errorf("received span %q of kind %v, attributes %v, status %v %q; want %q, server, error.type tool_error, status error %q",
			sp.Name, sp.Kind, got, sp.Status.GetCode(), sp.Status.GetMessage(), "tools/call echo", message)
	}
	select {
	case extra := <-received:
		t.Errorf("the receiver got a second span %q", extra.Name)
	default:
	}
}
