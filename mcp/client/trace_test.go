package client

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpbookshop/guide/mcp"
)

// traceKey is the key under which the tests put a call's trace context.
type traceKey struct{}

// traceFromContext is an Options.TraceContext: the two strings under
// traceKey, if any.
func traceFromContext(ctx context.Context) (string, string) {
	tc, _ := ctx.Value(traceKey{}).([2]string)
	return tc[0], tc[1]
}

// TestClientSendsTraceContext checks that the trace context
// Options.TraceContext gives a call reaches the server's observer, in
// each era, in process and over HTTP, and that a call without one sends
// what it sent before.
func TestClientSendsTraceContext(t *testing.T) {
	const tp, ts = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "congo=t61rcWkgMzE"
	var mu sync.Mutex
	seen := map[string]mcp.RequestInfo{} // by the echoed text
	s := mcp.NewServer("traced", "1.0.0", &mcp.Options{
		Logger: slog.New(slog.DiscardHandler),
		Observe: func(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
			if req.Method != "tools/call" {
				return ctx, nil
			}
			return ctx, func(out mcp.Outcome) {
				mu.Lock()
				defer mu.Unlock()
				seen[out.ToolResult.Content[0].Text] = req
			}
		},
	})
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, args struct {
		Text string `json:"text"`
	}) (string, error) {
		return args.Text, nil
	})
	hs := httptest.NewServer(s.HTTPHandler(nil))
	defer hs.Close()

	for name, tr := range map[string]func() Transport{
		"in-process": func() Transport { return InProcess(s) },
		"http":       func() Transport { return HTTP(hs.URL, nil) },
	} {
		for _, era := range []Era{EraModern, EraLegacy} {
			rec := &sendRecorder{Transport: tr()}
			c, err := Connect(context.Background(), rec, &Options{Era: era, TraceContext: traceFromContext})
			if err != nil {
				t.Fatalf("%s/%s: Connect: %v", name, era, err)
			}
			traced := name + "/" + era.String() + "/traced"
			ctx := context.WithValue(context.Background(), traceKey{}, [2]string{tp, ts})
			untraced := name + "/" + era.String() + "/untraced"
			for text, ctx := range map[string]context.Context{traced: ctx, untraced: context.Background()} {
				if _, err := c.CallTool(ctx, "echo", map[string]string{"text": text}); err != nil {
					t.Fatalf("%s: %v", text, err)
				}
			}
			c.Close()
			mu.Lock()
			if got := seen[traced]; got.Traceparent != tp || got.Tracestate != ts || got.Modern != (era == EraModern) {
				t.Errorf("%s: the server saw %+v, want traceparent %q and tracestate %q", traced, got, tp, ts)
			}
			if got := seen[untraced]; got.Traceparent != "" || got.Tracestate != "" || got.Method != "tools/call" {
				t.Errorf("%s: the server saw %+v, want no trace context", untraced, got)
			}
			mu.Unlock()
			for _, m := range rec.sent {
				line := string(m.Line)
				if strings.Contains(line, untraced) && strings.Contains(line, `"trace`) {
					t.Errorf("%s: sent %s", untraced, line)
				}
				if strings.Contains(line, untraced) && strings.Contains(line, "_meta") != (era == EraModern) {
					t.Errorf("%s: sent %s, with _meta only in the modern era", untraced, line)
				}
				if strings.Contains(line, traced) && !strings.Contains(line, `"traceparent":"`+tp+`","tracestate":"`+ts+`"`) {
					t.Errorf("%s: sent %s", traced, line)
				}
			}
		}
	}
}
