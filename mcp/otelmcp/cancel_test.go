package otelmcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// endNotifier returns an Options.Observe that observes with r and sends
// each request's method on the returned channel once r has ended its
// span: a cancelled request gets no response to wait for.
func endNotifier(r *Recorder) (func(context.Context, mcp.RequestInfo) (context.Context, func(mcp.Outcome)), <-chan string) {
	ended := make(chan string, 16)
	return func(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
		ctx, end := r.Observe(ctx, req)
		return ctx, func(out mcp.Outcome) {
			end(out)
			ended <- req.Method
		}
	}, ended
}

// waitEnd waits until a request ends.
func waitEnd(t *testing.T, ended <-chan string, what string) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(testTimeout):
		t.Fatalf("%s did not end", what)
	}
}

// A request cancelled while its handler runs, by notifications/cancelled
// or by the client closing its HTTP request, has error.type "cancelled";
// one whose context reaches its deadline has "timeout". Its handler ran in
// its span.
func TestCancellationHasAnErrorType(t *testing.T) {
	tel := newTelemetry(t)
	observe, ended := endNotifier(tel.recorder(t, Options{}))
	started := make(chan context.Context, 1)
	s := newServer(observe, started)
	check := func(what, errorType, description string) {
		t.Helper()
		sp := tel.oneSpan(t, what)
		a := attrs(sp.Attributes)
		if sp.Name != "tools/call wait" || a[ErrorTypeKey] != errorType || a[RPCResponseStatusCodeKey] != "" ||
			sp.Status.Code != codes.Error || sp.Status.Description != description {
			t.Errorf("%s: span %q, error.type %q, rpc.response.status_code %q, status %v %q; want error.type %q and status Error %q",
				what, sp.Name, a[ErrorTypeKey], a[RPCResponseStatusCodeKey], sp.Status.Code, sp.Status.Description, errorType, description)
		}
	}

	c := serveStdio(t, s)
	c.send(mcptest.ToolCall(`"slow"`, "wait", "{}"))
	ctx := <-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}`)
	waitEnd(t, ended, "the cancelled call")
	spans := tel.spans.GetSpans()
	if len(spans) != 1 || !trace.SpanContextFromContext(ctx).Equal(spans[0].SpanContext) {
		t.Errorf("the handler ran in span %v, not in the request's span %v", trace.SpanContextFromContext(ctx), spans)
	}
	check("notifications/cancelled", ErrorTypeCancelled, "context canceled")

	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()
	hctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, err := mcptest.NewPost(hctx, ts.URL, mcptest.ToolCall("9", "wait", "{}"), mcptest.Headers("tools/call", "wait"))
		if err != nil {
			t.Error(err)
			return
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			t.Error("the closed HTTP request got a response")
		}
	}()
	<-started
	cancel()
	<-done
	waitEnd(t, ended, "the closed HTTP request")
	check("HTTP request closed", ErrorTypeCancelled, "context canceled")

	// A deadline set by the program that hands the server its messages.
	dctx, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	if line := s.NewSession().Handle(dctx, []byte(mcptest.ToolCall("1", "wait", "{}"))); line != nil {
		t.Errorf("the call past its deadline was answered %s", line)
	}
	waitEnd(t, ended, "the call past its deadline")
	check("deadline", ErrorTypeTimeout, "context deadline exceeded")

	points, _ := tel.durations(t)
	counts := map[string]uint64{}
	for _, p := range points {
		counts[attrs(p.Attributes.ToSlice())[ErrorTypeKey]] += p.Count
	}
	if counts[ErrorTypeCancelled] != 2 || counts[ErrorTypeTimeout] != 1 {
		t.Errorf("the duration counts %v by error.type, want two cancelled and one timeout", counts)
	}
}
