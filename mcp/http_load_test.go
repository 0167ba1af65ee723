package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// The size of the HTTP load test, and of its -short variant.
const (
	loadClients      = 300
	loadCalls        = 20
	loadShortClients = 50
	loadShortCalls   = 5
	loadTimeout      = 2 * time.Minute
	loadSettle       = 5 * time.Second // for goroutines to end after the test
)

// TestHTTPLoad has hundreds of clients call a server over loopback at once,
// half of them stateless, half in legacy sessions, and checks every
// response byte for byte; then that no goroutine is left behind.
func TestHTTPLoad(t *testing.T) {
	clients, calls := loadClients, loadCalls
	if testing.Short() {
		clients, calls = loadShortClients, loadShortCalls
	}
	before := runtime.NumGoroutine()

	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()

	l := &loader{hc: hc, url: ts.URL}
	var failures atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			if err := l.client(ctx, c, calls); err != nil {
				if failures.Add(1) <= 5 {
					t.Errorf("client %d: %v", c, err)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	requests := l.requests.Load()
	t.Logf("%d requests from %d concurrent clients (%d calls each) in %v: %.0f requests/s",
		requests, clients, calls, elapsed.Round(time.Millisecond), float64(requests)/elapsed.Seconds())
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of %d clients failed", n, clients)
	}

	ts.Close()
	tr.CloseIdleConnections()
	deadline := time.Now().Add(loadSettle)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before the load, %d after: a leak", before, after)
	}
}

// loader sends the load test's requests and counts them.
type loader struct {
	hc       *http.Client
	url      string
	requests atomic.Int64
}

// client makes calls tools/call requests, each echoing a text of its
// own, and checks each response. Even clients are stateless; odd ones open
// a legacy session first and end it last. Each client uses the same
// session for the same number of requests, so equal work is measured.
func (l *loader) client(ctx context.Context, c, calls int) error {
	modern := c%2 == 0
	session := ""
	if !modern {
		resp, id, err := l.post(ctx, httpInit, nil)
		if err != nil {
			return err
		}
		if id == "" || !strings.Contains(resp, `"protocolVersion":"2025-06-18"`) {
			return fmt.Errorf("initialize: session %q, response %s", id, resp)
		}
		session = id
	}
	for i := range calls {
		text := fmt.Sprintf("client %d call %d", c, i)
		var body, want string
		hdr := map[string]string{"Mcp-Session-Id": session}
		if modern {
			body = mcptest.ToolCall(strconv.Itoa(i), "echo", fmt.Sprintf(`{"text":%q}`, text))
			want = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"httptest","version":"1.0.0"}}}}`+"\n", i, text)
			hdr = mcptest.Headers("tools/call", "echo")
		} else {
			body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, i, text)
			want = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}]}}`+"\n", i, text)
		}
		got, _, err := l.post(ctx, body, hdr)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("call %d: got %s want %s", i, got, want)
		}
	}
	if session != "" {
		req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, l.url, nil)
		req.Header.Set("Mcp-Session-Id", session)
		l.requests.Add(1)
		resp, err := l.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			return fmt.Errorf("DELETE: status %d", resp.StatusCode)
		}
	}
	return nil
}

// post posts one message and returns the response body and session id;
// any status but 200 is an error.
func (l *loader) post(ctx context.Context, body string, hdr map[string]string) (string, string, error) {
	l.requests.Add(1)
	r, err := mcptest.Post(ctx, l.hc, l.url, body, hdr)
	if err != nil {
		return "", "", err
	}
	if r.Status != http.StatusOK {
		return "", "", fmt.Errorf("status %d: %s", r.Status, r.Body)
	}
	return r.Body, r.Header.Get("Mcp-Session-Id"), nil
}
