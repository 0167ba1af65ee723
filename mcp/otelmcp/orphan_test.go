package otelmcp

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// signalHandler is a slog handler that closes seen at the first record
// whose message is msg, and drops every record.
type signalHandler struct {
	msg  string
	seen chan struct{}
}

func (h *signalHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *signalHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *signalHandler) WithGroup(string) slog.Handler            { return h }
func (h *signalHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		select {
		case <-h.seen:
		default:
			close(h.seen)
		}
	}
	return nil
}

// TestOrphanEndsAsWhatItWas: in a legacy session, a handler whose client
// closed its HTTP request runs on (an orphan); when it returns a result,
// its span records a success, not a cancellation.
func TestOrphanEndsAsWhatItWas(t *testing.T) {
	tel := newTelemetry(t)
	observe, ended := endNotifier(tel.recorder(t, Options{}))
	orphaned := &signalHandler{msg: "the client closed the request; its handler runs on", seen: make(chan struct{})}
	s := mcp.NewServer("orphan", "1.0.0", &mcp.Options{Observe: observe, Logger: slog.New(orphaned)})
	started, release := make(chan struct{}), make(chan struct{})
	mcp.AddTool(s, mcp.Tool{Name: "hold"}, func(ctx context.Context, _ struct{}) (string, error) {
		close(started)
		<-release
		return "released", nil
	})
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()

	opened := post(t, context.Background(), ts.URL, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, nil)
	waitEnd(t, ended, "initialize")
	tel.takeSpans()
	session := map[string]string{"Mcp-Session-Id": opened.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25"}
	ctx, closeRequest := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, err := mcptest.NewPost(ctx, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold","arguments":{}}}`, session)
		if err != nil {
			t.Error(err)
			return
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			t.Error("the closed request got a response")
		}
	}()
	<-started
	closeRequest()
	<-done
	select {
	case <-orphaned.seen:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not log that the handler runs on")
	}
	close(release)
	waitEnd(t, ended, "the orphan")
	sp := tel.oneSpan(t, "the orphan")
	if a := attrs(sp.Attributes); a[ErrorTypeKey] != "" || sp.Status.Code == codes.Error {
		t.Errorf("the orphan's span: error.type %q, status %v %q; want a success", a[ErrorTypeKey], sp.Status.Code, sp.Status.Description)
	}
}
