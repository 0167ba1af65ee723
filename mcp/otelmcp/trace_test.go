package otelmcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp/client"
)

// A trace context a request carries in params._meta is the parent of its
// span, tracestate included.
func TestSpanContinuesTheTraceInMeta(t *testing.T) {
	tel := newTelemetry(t)
	s := newServer(tel.recorder(t, Options{}).Observe, nil)
	c := serveStdio(t, s)

	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""},"_meta":{` +
		`"traceparent":"00-` + traceID + `-` + parentID + `-01","tracestate":"rojo=00f067aa0ba902b7",` + mcptest.Meta[len(`"_meta":{`):] + `}}`)
	sp := tel.oneSpan(t, "traced call")
	if sp.SpanContext.TraceID().String() != traceID || sp.Parent.SpanID().String() != parentID || !sp.Parent.IsRemote() {
		t.Errorf("span in trace %s with parent %s (remote %v), want trace %s, parent %s", sp.SpanContext.TraceID(), sp.Parent.SpanID(), sp.Parent.IsRemote(), traceID, parentID)
	}
	if got := sp.SpanContext.TraceState().Get("rojo"); got != parentID {
		t.Errorf("tracestate rojo=%q, want %s", got, parentID)
	}

	// A traceparent that is not one starts a trace of the server's own.
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"traceparent":"00-nonsense",` + mcptest.Meta[len(`"_meta":{`):] + `}}`)
	if sp := tel.oneSpan(t, "bad traceparent"); sp.Parent.IsValid() || !sp.SpanContext.IsValid() {
		t.Errorf("a bad traceparent gave the span parent %v", sp.Parent)
	}

}

// mcp/client's Options.TraceContext, set to TraceContext, carries the
// caller's span to the server, in each era, in process and over HTTP;
// over HTTP the span already in the request's context (an HTTP server
// span) is linked, not the parent.
func TestClientCarriesItsSpan(t *testing.T) {
	tel := newTelemetry(t)
	s := newServer(tel.recorder(t, Options{}).Observe, nil)
	tracer := tel.tp.Tracer("test")
	h := s.HTTPHandler(nil)
	var mu sync.Mutex
	posts := map[trace.SpanID]bool{} // the spans of the HTTP requests, as they start
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, sp := tracer.Start(r.Context(), "POST", trace.WithSpanKind(trace.SpanKindServer))
		defer sp.End()
		mu.Lock()
		posts[sp.SpanContext().SpanID()] = true
		mu.Unlock()
		h.ServeHTTP(w, r.WithContext(ctx))
	}))
	defer hs.Close()

	for name, tr := range map[string]func() client.Transport{
		"in-process": func() client.Transport { return client.InProcess(s) },
		"http":       func() client.Transport { return client.HTTP(hs.URL, nil) },
	} {
		for _, era := range []client.Era{client.EraModern, client.EraLegacy} {
			c, err := client.Connect(context.Background(), tr(), &client.Options{Era: era, TraceContext: TraceContext})
			if err != nil {
				t.Fatalf("%s/%s: Connect: %v", name, era, err)
			}
			tel.takeSpans()
			ctx, caller := tracer.Start(context.Background(), "tools/call echo", trace.WithSpanKind(trace.SpanKindClient))
			if _, err := c.CallTool(ctx, "echo", map[string]string{"text": "hi"}); err != nil {
				t.Fatalf("%s/%s: %v", name, era, err)
			}
			caller.End()
			c.Close()
			var server []trace.SpanContext
			mu.Lock()
			for _, sp := range tel.takeSpans() {
				if sp.SpanKind == trace.SpanKindServer && sp.Name == "tools/call echo" {
					server = append(server, sp.SpanContext)
					if sp.Parent.SpanID() != caller.SpanContext().SpanID() || sp.SpanContext.TraceID() != caller.SpanContext().TraceID() {
						t.Errorf("%s/%s: the server's span has parent %s in trace %s, want the caller's span %s in trace %s",
							name, era, sp.Parent.SpanID(), sp.SpanContext.TraceID(), caller.SpanContext().SpanID(), caller.SpanContext().TraceID())
					}
					links := sp.Links
					if name == "http" && (len(links) != 1 || !posts[links[0].SpanContext.SpanID()]) {
						t.Errorf("%s/%s: links %v, want the span of the HTTP request that carried the call", name, era, links)
					}
					if name == "in-process" && len(links) != 0 {
						t.Errorf("%s/%s: links %v, want none", name, era, links)
					}
				}
			}
			mu.Unlock()
			if len(server) != 1 {
				t.Errorf("%s/%s: %d server spans for the call, want 1", name, era, len(server))
			}
		}
	}

	// Without a span in its context, the client sends no trace context.
	if tp, ts := TraceContext(context.Background()); tp != "" || ts != "" {
		t.Errorf("TraceContext of no span: %q %q", tp, ts)
	}
}
