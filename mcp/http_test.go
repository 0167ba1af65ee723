package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// httpTestLogger keeps the tests' expected errors out of the test output.
var httpTestLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// newHTTPTestServer returns a server with two tools: echo, and wait, which
// sends its context on started and blocks until that context is cancelled
// or release is closed.
func newHTTPTestServer(started chan<- context.Context, release <-chan struct{}) *Server {
	s := NewServer("httptest", "1.0.0", &Options{Logger: httpTestLogger})
	type echoArgs struct {
		Text string `json:"text"`
	}
	AddTool(s, Tool{Name: "echo"}, func(ctx context.Context, a echoArgs) (string, error) {
		if a.Text == "" {
			return "", errors.New("nothing to echo")
		}
		return a.Text, nil
	})
	addWaitTool(s, started, release)
	return s
}

// The bodies the tests send.
var (
	httpList       = mcptest.Request("1", "tools/list", "")
	httpCall       = mcptest.ToolCall("2", "echo", `{"text":"hi"}`)
	httpInit       = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	httpLegacyCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
)

// newHTTPRequest returns a request of method with the headers a conforming
// client sends (those of every POST, as mcptest.SetPostHeaders sets them),
// then hdr: an empty value in hdr removes that header, and "Host" sets the
// request's host.
func newHTTPRequest(t *testing.T, ctx context.Context, method, url, body string, hdr map[string]string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		mcptest.SetPostHeaders(req.Header, nil)
	}
	for k, v := range hdr {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	return req
}

// httpSend sends a request made by newHTTPRequest and reads the response.
func httpSend(t *testing.T, method, url, body string, hdr map[string]string) mcptest.Response {
	t.Helper()
	return httpSendVia(t, http.DefaultClient, method, url, body, hdr)
}

// httpSendVia is httpSend through the client hc.
func httpSendVia(t *testing.T, hc *http.Client, method, url, body string, hdr map[string]string) mcptest.Response {
	t.Helper()
	r, err := mcptest.Do(hc, newHTTPRequest(t, context.Background(), method, url, body, hdr))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// httpWireError is the JSON-RPC error in a response body.
type httpWireError struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// httpInitSession opens a legacy session and returns its id.
func httpInitSession(t *testing.T, url string) string {
	t.Helper()
	r := httpSend(t, http.MethodPost, url, httpInit, nil)
	id := r.Header.Get("Mcp-Session-Id")
	if r.Status != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session id %q, body %s", r.Status, id, r.Body)
	}
	return id
}

func TestHTTPErrorPaths(t *testing.T) {
	s := newHTTPTestServer(nil, nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{
		AllowedOrigins: []string{"https://app.example"},
		MaxBodyBytes:   1024,
	}))
	defer ts.Close()
	session := httpInitSession(t, ts.URL)
	sessionHeaders := map[string]string{"Mcp-Session-Id": session}
	list := mcptest.Headers("tools/list", "")
	call := mcptest.Headers("tools/call", "echo")
	with := func(h map[string]string, k, v string) map[string]string {
		c := map[string]string{k: v}
		for hk, hv := range h {
			if hk != k {
				c[hk] = hv
			}
		}
		return c
	}

	tests := []struct {
		name       string
		method     string
		body       string
		hdr        map[string]string
		wantStatus int
		wantCode   int
		wantText   string // in the message or data
	}{
		{"origin not allowed", "POST", httpList, with(list, "Origin", "https://evil.example"), 403, CodeInvalidRequest, "origin https://evil.example is not allowed"},
		{"origin null", "POST", httpList, with(list, "Origin", "null"), 403, CodeInvalidRequest, "not allowed"},
		{"origin of a look-alike", "POST", httpList, with(list, "Origin", "http://localhost.evil.example"), 403, CodeInvalidRequest, "not allowed"},
		{"host not loopback", "POST", httpList, with(list, "Host", "evil.example"), 421, CodeInvalidRequest, "host evil.example is not allowed"},
		{"host rebinding with port", "DELETE", "", map[string]string{"Host": "rebind.example:80"}, 421, CodeInvalidRequest, "not allowed"},
		{"accept without event-stream", "POST", httpList, with(list, "Accept", "application/json"), 406, CodeInvalidRequest, "Accept"},
		{"accept missing", "POST", httpList, with(list, "Accept", ""), 406, CodeInvalidRequest, "Accept"},
		{"content type text", "POST", httpList, with(list, "Content-Type", "text/plain"), 415, CodeInvalidRequest, "Content-Type"},
		{"content type missing", "POST", httpList, with(list, "Content-Type", ""), 415, CodeInvalidRequest, "Content-Type"},
		{"body too long", "POST", strings.Repeat(" ", 2000) + httpList, list, 413, CodeInvalidRequest, "1024-byte limit"},
		{"batch", "POST", "[" + httpList + "]", list, 400, CodeInvalidRequest, "not a batch"},
		{"not JSON", "POST", `{"jsonrpc":`, list, 400, CodeParseError, ""},
		{"empty body", "POST", "", list, 400, CodeParseError, ""},
		{"not a request", "POST", `{"jsonrpc":"2.0","id":9}`, list, 400, CodeInvalidRequest, `method\" is missing`},
		{"session missing", "POST", httpLegacyCall, nil, 400, CodeInvalidRequest, "Mcp-Session-Id header is missing"},
		{"session unknown", "POST", httpLegacyCall, map[string]string{"Mcp-Session-Id": "no-such-session"}, 404, CodeInvalidRequest, "unknown, ended or expired"},
		{"version unsupported", "POST", httpLegacyCall, with(sessionHeaders, "Mcp-Protocol-Version", "1999-01-01"), 400, CodeUnsupportedProtocolVersion, "Unsupported protocol version"},
		{"modern version unsupported", "POST", strings.ReplaceAll(httpList, ModernVersion, "2099-01-01"), with(list, "Mcp-Protocol-Version", "2099-01-01"), 400, CodeUnsupportedProtocolVersion, `"requested":"2099-01-01"`},
		{"version header missing", "POST", httpList, with(list, "Mcp-Protocol-Version", ""), 400, CodeHeaderMismatch, "Mcp-Protocol-Version header is missing"},
		{"version header without _meta", "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, list, 400, CodeHeaderMismatch, "does not match body value ''"},
		{"method header missing", "POST", httpList, with(list, "Mcp-Method", ""), 400, CodeHeaderMismatch, "Mcp-Method header is missing"},
		{"method header differs", "POST", httpList, with(list, "Mcp-Method", "tools/call"), 400, CodeHeaderMismatch, "Mcp-Method header value 'tools/call' does not match body value 'tools/list'"},
		{"name header missing", "POST", httpCall, with(call, "Mcp-Name", ""), 400, CodeHeaderMismatch, "Mcp-Name header is missing"},
		{"name header differs", "POST", httpCall, with(call, "Mcp-Name", "wait"), 400, CodeHeaderMismatch, "Mcp-Name header value 'wait' does not match body value 'echo'"},
		{"name header bad base64", "POST", httpCall, with(call, "Mcp-Name", "=?base64?!!?="), 400, CodeHeaderMismatch, "not valid base64"},
		{"capabilities missing", "POST", strings.ReplaceAll(httpList, `,"io.modelcontextprotocol/clientCapabilities":{}`, ""), list, 400, CodeInvalidParams, "clientCapabilities"},
		{"unknown method", "POST", strings.ReplaceAll(httpList, "tools/list", "prompts/list"), mcptest.Headers("prompts/list", ""), 404, CodeMethodNotFound, "prompts/list"},
		{"ping is legacy only", "POST", strings.ReplaceAll(httpList, "tools/list", "ping"), mcptest.Headers("ping", ""), 404, CodeMethodNotFound, "ping"},
		{"GET", "GET", "", nil, 405, CodeInvalidRequest, "GET is not supported"},
		{"GET modern", "GET", "", map[string]string{"Mcp-Protocol-Version": ModernVersion}, 405, CodeInvalidRequest, "GET is not supported"},
		{"DELETE modern", "DELETE", "", map[string]string{"Mcp-Protocol-Version": ModernVersion, "Mcp-Session-Id": session}, 405, CodeInvalidRequest, "DELETE is not supported"},
		{"DELETE without session", "DELETE", "", nil, 400, CodeInvalidRequest, "Mcp-Session-Id header is missing"},
		{"DELETE unknown session", "DELETE", "", map[string]string{"Mcp-Session-Id": "gone"}, 404, CodeInvalidRequest, "unknown"},
		{"PUT", "PUT", httpList, list, 405, CodeInvalidRequest, "PUT is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httpSend(t, tt.method, ts.URL, tt.body, tt.hdr)
			if r.Status != tt.wantStatus {
				t.Errorf("status %d, want %d; body %s", r.Status, tt.wantStatus, r.Body)
			}
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var w httpWireError
			if err := json.Unmarshal([]byte(r.Body), &w); err != nil || w.Error == nil {
				t.Fatalf("body is not a JSON-RPC error: %s", r.Body)
			}
			if w.Error.Code != tt.wantCode {
				t.Errorf("code %d, want %d; body %s", w.Error.Code, tt.wantCode, r.Body)
			}
			if !strings.Contains(w.Error.Message+string(w.Error.Data), tt.wantText) {
				t.Errorf("error %s does not mention %q", r.Body, tt.wantText)
			}
			if tt.wantStatus == 405 && r.Header.Get("Allow") != "POST, DELETE" {
				t.Errorf("Allow %q, want POST, DELETE", r.Header.Get("Allow"))
			}
		})
	}

	// After all of that, the server still serves both eras.
	if r := httpSend(t, "POST", ts.URL, httpCall, call); r.Status != 200 || !strings.Contains(r.Body, `"text":"hi"`) {
		t.Errorf("modern call after the errors: %d %s", r.Status, r.Body)
	}
	if r := httpSend(t, "POST", ts.URL, httpLegacyCall, sessionHeaders); r.Status != 200 || !strings.Contains(r.Body, `"text":"hi"`) {
		t.Errorf("legacy call after the errors: %d %s", r.Status, r.Body)
	}
	// A supported version other than the negotiated one is served at the
	// negotiated version, as the official conformance suite expects.
	if r := httpSend(t, "POST", ts.URL, httpLegacyCall, with(sessionHeaders, "Mcp-Protocol-Version", "2025-11-25")); r.Status != 200 || !strings.Contains(r.Body, `"text":"hi"`) {
		t.Errorf("legacy call with another supported version header: %d %s", r.Status, r.Body)
	}
}

func TestHTTPAllowed(t *testing.T) {
	s := newHTTPTestServer(nil, nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{
		AllowedOrigins: []string{"https://app.example"},
		AllowedHosts:   []string{"mcp.internal"},
	}))
	defer ts.Close()
	list := mcptest.Headers("tools/list", "")
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	for _, hdr := range []map[string]string{
		{"Origin": "http://localhost:6274"}, // the Inspector
		{"Origin": "http://127.0.0.1"},
		{"Origin": "https://[::1]:8443"},
		{"Origin": "https://app.example"},
		{"Host": "localhost:" + port},
		{"Host": "mcp.internal"},
		{"Host": "mcp.internal:" + port},
		{"Accept": "*/*"},
		{"Accept": "application/json;q=0.9, text/event-stream;q=0.5"},
		{"Content-Type": "application/json; charset=utf-8"},
	} {
		for k, v := range list {
			hdr[k] = v
		}
		if r := httpSend(t, "POST", ts.URL, httpList, hdr); r.Status != http.StatusOK {
			t.Errorf("%v: status %d, want 200; body %s", hdr, r.Status, r.Body)
		}
	}
}

func TestHTTPModern(t *testing.T) {
	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	defer ts.Close()

	r := httpSend(t, "POST", ts.URL, httpCall, mcptest.Headers("tools/call", "echo"))
	if r.Status != 200 || r.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("status %d, session %q; want 200 and no session", r.Status, r.Header.Get("Mcp-Session-Id"))
	}
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"httptest","version":"1.0.0"}}}}` + "\n"
	if r.Body != want {
		t.Errorf("body\n%s\nwant\n%s", r.Body, want)
	}

	// A tool error is a result, 200; a name encoded in base64 is decoded.
	toolErr := strings.Replace(httpCall, `"hi"`, `""`, 1)
	r = httpSend(t, "POST", ts.URL, toolErr, mcptest.Headers("tools/call", "=?base64?ZWNobw==?="))
	if r.Status != 200 || !strings.Contains(r.Body, `"text":"Error executing tool echo: nothing to echo"}],"isError":true`) {
		t.Errorf("tool error: %d %s", r.Status, r.Body)
	}

	// An unknown tool is invalid params: 400, with the request's id.
	unknown := strings.Replace(httpCall, `"echo"`, `"nope"`, 1)
	r = httpSend(t, "POST", ts.URL, unknown, mcptest.Headers("tools/call", "nope"))
	wantErr := `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: nope"}}` + "\n"
	if r.Status != 400 || r.Body != wantErr {
		t.Errorf("unknown tool: %d %s, want 400 %s", r.Status, r.Body, wantErr)
	}

	// A notification is accepted with no body.
	r = httpSend(t, "POST", ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		map[string]string{"Mcp-Protocol-Version": ModernVersion})
	if r.Status != http.StatusAccepted || r.Body != "" {
		t.Errorf("notification: %d %q, want 202 and no body", r.Status, r.Body)
	}
}

func TestHTTPLegacySession(t *testing.T) {
	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	defer ts.Close()

	id := httpInitSession(t, ts.URL)
	if other := httpInitSession(t, ts.URL); other == id {
		t.Errorf("two sessions share the id %q", id)
	}
	if len(id) < 20 || strings.IndexFunc(id, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0 {
		t.Errorf("session id %q: want at least 20 visible ASCII characters", id)
	}
	hdr := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	if r := httpSend(t, "POST", ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr); r.Status != 202 || r.Body != "" {
		t.Errorf("initialized: %d %q, want 202 and no body", r.Status, r.Body)
	}
	r := httpSend(t, "POST", ts.URL, httpLegacyCall, hdr)
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n"
	if r.Status != 200 || r.Body != want {
		t.Errorf("call: %d %s, want 200 %s", r.Status, r.Body, want)
	}
	// Errors in a session are JSON-RPC errors in a 200, as on stdio.
	r = httpSend(t, "POST", ts.URL, `{"jsonrpc":"2.0","id":3,"method":"resources/list"}`, hdr)
	if r.Status != 200 || !strings.Contains(r.Body, `"code":-32601`) {
		t.Errorf("unknown method in a session: %d %s, want 200 and -32601", r.Status, r.Body)
	}
	// A second initialize in the session is a new session.
	if r := httpSend(t, "POST", ts.URL, httpInit, hdr); r.Status != 200 || r.Header.Get("Mcp-Session-Id") == id {
		t.Errorf("initialize again: %d, session %q", r.Status, r.Header.Get("Mcp-Session-Id"))
	}
	// A failed initialize opens no session.
	bad := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":[]}`
	if r := httpSend(t, "POST", ts.URL, bad, nil); r.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(r.Body, `"error"`) {
		t.Errorf("bad initialize: %d %s, session %q", r.Status, r.Body, r.Header.Get("Mcp-Session-Id"))
	}

	if r := httpSend(t, "DELETE", ts.URL, "", hdr); r.Status != http.StatusNoContent {
		t.Errorf("DELETE: %d %s, want 204", r.Status, r.Body)
	}
	// The refusals echo the id of the request they refuse.
	if r := httpSend(t, "POST", ts.URL, httpLegacyCall, hdr); r.Status != http.StatusNotFound || !strings.HasPrefix(r.Body, `{"jsonrpc":"2.0","id":2,"error":`) {
		t.Errorf("call after DELETE: %d %s, want 404 for id 2", r.Status, r.Body)
	}
	if r := httpSend(t, "POST", ts.URL, httpLegacyCall, nil); r.Status != http.StatusBadRequest || !strings.HasPrefix(r.Body, `{"jsonrpc":"2.0","id":2,"error":`) {
		t.Errorf("call without a session: %d %s, want 400 for id 2", r.Status, r.Body)
	}
}

// TestHTTPSessionLimits runs in a synctest bubble, whose clock moves only
// when every goroutine in it waits: the sessions expire when the test
// says, however busy the machine.
func TestHTTPSessionLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = 100 * time.Millisecond
		s := newHTTPTestServer(nil, nil)
		h := s.HTTPHandler(&HTTPOptions{MaxSessions: 2, SessionIdleTimeout: idle})
		open := func() string {
			t.Helper()
			r := handlerSend(t, h, "POST", httpInit, nil)
			id := r.Header.Get("Mcp-Session-Id")
			if r.Status != http.StatusOK || id == "" {
				t.Fatalf("initialize: status %d, session id %q, body %s", r.Status, id, r.Body)
			}
			return id
		}

		first := open()
		open()
		r := handlerSend(t, h, "POST", httpInit, nil)
		if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Body, "too many open sessions") {
			t.Errorf("initialize over the cap: %d %s, Retry-After %q; want 503", r.Status, r.Body, r.Header.Get("Retry-After"))
		}
		time.Sleep(idle / 2)
		if r := handlerSend(t, h, "POST", httpInit, nil); r.Status != http.StatusServiceUnavailable {
			t.Errorf("initialize over the cap, the sessions not yet idle: %d %s; want 503", r.Status, r.Body)
		}
		time.Sleep(idle)
		third := open() // the expired sessions make room
		if n := h.(*httpHandler).sessions.len(); n != 1 {
			t.Errorf("%d sessions held after the sweep, want 1", n)
		}
		if r := handlerSend(t, h, "POST", httpLegacyCall, map[string]string{"Mcp-Session-Id": first}); r.Status != http.StatusNotFound {
			t.Errorf("expired session: %d %s, want 404", r.Status, r.Body)
		}
		if r := handlerSend(t, h, "POST", httpLegacyCall, map[string]string{"Mcp-Session-Id": third}); r.Status != http.StatusOK {
			t.Errorf("live session: %d %s, want 200", r.Status, r.Body)
		}
	})
}

func TestHTTPCancel(t *testing.T) {
	started, release := make(chan context.Context, 1), make(chan struct{})
	ts := httptest.NewServer(newHTTPTestServer(started, release).HTTPHandler(nil))
	defer ts.Close()
	defer close(release) // should the cancellation fail, the handler still ends

	ctx, cancel := context.WithCancel(context.Background())
	body := strings.NewReplacer(`"echo"`, `"wait"`, `"arguments":{"text":"hi"},`, "").Replace(httpCall)
	req := newHTTPRequest(t, ctx, "POST", ts.URL, body, mcptest.Headers("tools/call", "wait"))
	done := make(chan error)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	handlerCtx := <-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("request error %v, want context.Canceled", err)
	}
	select {
	case <-handlerCtx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("closing the request did not cancel the handler's context")
	}
	if r := httpSend(t, "POST", ts.URL, httpList, mcptest.Headers("tools/list", "")); r.Status != 200 {
		t.Errorf("after the cancel: %d %s", r.Status, r.Body)
	}
}

// TestHTTPCancelInSession: in a legacy session, notifications/cancelled
// cancels the handler of the request it names, and that request gets no
// response.
func TestHTTPCancelInSession(t *testing.T) {
	started, release := make(chan context.Context, 1), make(chan struct{})
	ts := httptest.NewServer(newHTTPTestServer(started, release).HTTPHandler(nil))
	defer ts.Close()
	defer close(release) // should the cancellation fail, the handler still ends
	hdr := map[string]string{"Mcp-Session-Id": httpInitSession(t, ts.URL)}

	done := make(chan error)
	req := newHTTPRequest(t, context.Background(), "POST", ts.URL, `{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}}`, hdr)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			err = fmt.Errorf("a response: %d %s", resp.StatusCode, b)
		}
		done <- err
	}()
	handlerCtx := <-started
	r := httpSend(t, "POST", ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`, hdr)
	if r.Status != http.StatusAccepted {
		t.Errorf("notifications/cancelled: %d %s, want 202", r.Status, r.Body)
	}
	waitCancelled(t, handlerCtx, "the handler")
	if err := <-done; err == nil || strings.HasPrefix(err.Error(), "a response") {
		t.Errorf("the cancelled request got %v, want no response", err)
	}
	if r := httpSend(t, "POST", ts.URL, httpLegacyCall, hdr); r.Status != 200 {
		t.Errorf("the session after the cancel: %d %s", r.Status, r.Body)
	}
}

// TestServeStreamableHTTPShutdown runs in a synctest bubble, on a listener
// in memory: synctest.Wait returns once the shutdown has begun and waits
// for the request in flight, with nothing left to chance.
func TestServeStreamableHTTPShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started, release := make(chan context.Context, 1), make(chan struct{})
		s := newHTTPTestServer(started, release)
		ln := newPipeListener()
		hc := &http.Client{Transport: &http.Transport{DialContext: ln.DialContext}}
		defer hc.CloseIdleConnections()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error)
		go func() { served <- s.ServeStreamableHTTP(ctx, ln, nil) }()
		url := "http://localhost" + DefaultHTTPPath

		if r := httpSendVia(t, hc, "POST", "http://localhost/other", httpList, mcptest.Headers("tools/list", "")); r.Status != http.StatusNotFound {
			t.Errorf("another path: %d, want 404", r.Status)
		}
		body := strings.NewReplacer(`"echo"`, `"wait"`, `"arguments":{"text":"hi"},`, "").Replace(httpCall)
		inflight := make(chan mcptest.Response)
		go func() { inflight <- httpSendVia(t, hc, "POST", url, body, mcptest.Headers("tools/call", "wait")) }()
		<-started
		cancel() // shutdown begins with a request in flight
		synctest.Wait()
		select {
		case err := <-served:
			t.Fatalf("ServeStreamableHTTP returned %v with a request in flight", err)
		case r := <-inflight:
			t.Fatalf("the request in flight was answered before its handler returned: %d %s", r.Status, r.Body)
		default:
		}
		close(release)
		if r := <-inflight; r.Status != 200 || !strings.Contains(r.Body, "released") {
			t.Errorf("in-flight request: %d %s, want it finished", r.Status, r.Body)
		}
		if err := <-served; err != nil {
			t.Errorf("ServeStreamableHTTP returned %v, want nil", err)
		}
		synctest.Wait() // the client has seen its kept-alive connection closed
		if _, err := hc.Post(url, "application/json", bytes.NewReader(nil)); !errors.Is(err, errListenerClosed) {
			t.Errorf("a request after shutdown: %v, want the listener closed", err)
		}
	})
}
