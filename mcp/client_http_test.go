package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The client's tests run over Streamable HTTP too, against the same server
// behind a real loopback listener.
func init() {
	clientTransports["http"] = func(t *testing.T) Transport {
		ts := httptest.NewServer(newClientTestServer().HTTPHandler(nil))
		t.Cleanup(ts.Close)
		return HTTPTransport(ts.URL, nil)
	}
}

// TestHTTPTransportSession: a legacy client holds one session, which Close
// ends; a session the server has forgotten fails calls with ErrClosed.
func TestHTTPTransportSession(t *testing.T) {
	h := newClientTestServer().HTTPHandler(nil).(*httpHandler)
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx := context.Background()

	c, err := Connect(ctx, HTTPTransport(ts.URL, nil), &ClientOptions{Era: EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	if n := h.sessions.len(); n != 1 {
		t.Errorf("%d sessions after Connect, want 1", n)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Errorf("ListTools: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if n := h.sessions.len(); n != 0 {
		t.Errorf("%d sessions after Close, want 0", n)
	}

	c, err = Connect(ctx, HTTPTransport(ts.URL, nil), &ClientOptions{Era: EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h.sessions.mu.Lock()
	clear(h.sessions.m) // the server forgets every session, as on expiry
	h.sessions.mu.Unlock()
	if _, err := c.ListTools(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("ListTools in a forgotten session: got %v, want ErrClosed", err)
	}
}

// TestHTTPTransportNotMCP: a status without a JSON-RPC body is an HTTPError.
func TestHTTPTransportNotMCP(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	c, err := Connect(context.Background(), HTTPTransport(ts.URL, nil), &ClientOptions{Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.ListTools(context.Background())
	var herr *HTTPError
	if !errors.As(err, &herr) || herr.StatusCode != http.StatusNotFound || !strings.Contains(herr.Body, "404 page not found") {
		t.Errorf("got %v, want an HTTPError 404 with the body", err)
	}
}

// TestHTTPTransportEncodedName: a resource URI that cannot be a plain
// header value is sent base64-encoded in Mcp-Name, and the server decodes
// it: the read reaches the handler, which does not know the book.
func TestHTTPTransportEncodedName(t *testing.T) {
	ts := httptest.NewServer(newClientTestServer().HTTPHandler(nil))
	defer ts.Close()
	c, err := Connect(context.Background(), HTTPTransport(ts.URL, nil), &ClientOptions{Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, uri := range []string{"books://Dün", "books://Dune ", "=?base64?x?="} {
		_, err := c.ReadResource(context.Background(), uri)
		var perr *Error
		if !errors.As(err, &perr) || perr.Code != CodeInvalidParams {
			t.Errorf("ReadResource(%q): got %v, want not found (-32602), not a header mismatch", uri, err)
		}
	}
}

func TestEncodeHeaderValue(t *testing.T) {
	for in, want := range map[string]string{
		"get_author":         "get_author",
		"books://Dune":       "books://Dune",
		"Hello, 世界":          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
	} {
		if got := encodeHeaderValue(in); got != want {
			t.Errorf("encodeHeaderValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadEvents(t *testing.T) {
	stream := ": a comment\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
		"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\n" + "data: \"id\":7,\"result\":{\"ok\":true}}\n\n"
	got, err := readEvents(strings.NewReader(stream), 7)
	if want := "{\"jsonrpc\":\"2.0\",\n\"id\":7,\"result\":{\"ok\":true}}"; err != nil || string(got) != want {
		t.Errorf("readEvents: got %q, %v; want %q", got, err, want)
	}
	if _, err := readEvents(strings.NewReader(stream), 8); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("readEvents with no response: got %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestHTTPTransportProbeFallback: a legacy-only HTTP server that answers
// server/discover with a bare HTTP status, no JSON-RPC in its body, makes
// the probing client fall back to the handshake.
func TestHTTPTransportProbeFallback(t *testing.T) {
	h := newClientTestServer().HTTPHandler(nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == "server/discover" {
			http.Error(w, "unknown method", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c, err := Connect(context.Background(), HTTPTransport(ts.URL, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != LatestLegacyVersion {
		t.Errorf("connected at %q, want the handshake's %q", v, LatestLegacyVersion)
	}
}
