package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// The client's tests run over Streamable HTTP too, against the same server
// behind a real loopback listener.
func init() {
	clientTransports["http"] = func(t *testing.T) Transport {
		ts := httptest.NewServer(newClientTestServer().HTTPHandler(nil))
		t.Cleanup(ts.Close)
		return HTTP(ts.URL, nil)
	}
}

// sessionSpy serves the test server over HTTP and records the legacy
// sessions it opens, by the Mcp-Session-Id of its initialize responses.
type sessionSpy struct {
	h        http.Handler
	mu       sync.Mutex
	sessions []string
}

func (s *sessionSpy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.h.ServeHTTP(w, r)
	if id := w.Header().Get(headerSessionID); id != "" && r.Header.Get(headerSessionID) == "" {
		s.mu.Lock()
		s.sessions = append(s.sessions, id)
		s.mu.Unlock()
	}
}

// opened returns the sessions opened so far.
func (s *sessionSpy) opened() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sessions)
}

// sessionStatus sends a ping in the session id at url and returns the
// HTTP status of the answer: 200 while the server knows the session, 404
// once it does not.
func sessionStatus(t *testing.T, url, id string) int {
	r, err := mcptest.Post(context.Background(), nil, url, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		map[string]string{headerProtocolVersion: mcp.LatestLegacyVersion, headerSessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	return r.Status
}

// TestHTTPTransportSession: a legacy client holds one session, which Close
// ends; a session the server has forgotten fails calls with ErrClosed.
func TestHTTPTransportSession(t *testing.T) {
	spy := &sessionSpy{h: newClientTestServer().HTTPHandler(nil)}
	ts := httptest.NewServer(spy)
	defer ts.Close()
	ctx := context.Background()

	c, err := Connect(ctx, HTTP(ts.URL, nil), &Options{Era: EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Errorf("ListTools: %v", err)
	}
	opened := spy.opened()
	if len(opened) != 1 {
		t.Fatalf("the client opened %d sessions, want 1", len(opened))
	}
	id := opened[0]
	if got := sessionStatus(t, ts.URL, id); got != http.StatusOK {
		t.Errorf("the open session is answered %d, want 200", got)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if got := sessionStatus(t, ts.URL, id); got != http.StatusNotFound {
		t.Errorf("the session is answered %d after Close, want 404: Close did not end it", got)
	}

	c, err = Connect(ctx, HTTP(ts.URL, nil), &Options{Era: EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The server forgets the session, as on expiry.
	req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	opened = spy.opened()
	req.Header.Set(headerSessionID, opened[len(opened)-1])
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	if _, err := c.ListTools(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("ListTools in a forgotten session: got %v, want ErrClosed", err)
	}
}

// TestHTTPTransportNotMCP: a status without a JSON-RPC body is an HTTPError.
func TestHTTPTransportNotMCP(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	c, err := Connect(context.Background(), HTTP(ts.URL, nil), &Options{Era: EraModern})
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
	c, err := Connect(context.Background(), HTTP(ts.URL, nil), &Options{Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, uri := range []string{"books://Dün", "books://Dune ", "=?base64?x?="} {
		_, err := c.ReadResource(context.Background(), uri)
		var perr *mcp.Error
		if !errors.As(err, &perr) || perr.Code != mcp.CodeInvalidParams {
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
	c, err := Connect(context.Background(), HTTP(ts.URL, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != mcp.LatestLegacyVersion {
		t.Errorf("connected at %q, want the handshake's %q", v, mcp.LatestLegacyVersion)
	}
}

// TestHTTPTransportNotifyRefused: a notification refused with a JSON-RPC
// error in the body of a non-2xx status fails with that protocol error,
// as a call would; a bare status is an HTTPError with its body.
func TestHTTPTransportNotifyRefused(t *testing.T) {
	h := newClientTestServer().HTTPHandler(nil)
	bodies := make(chan []byte, 1) // the body the server answered with
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		bodies <- rec.Body.Bytes()
	}))
	defer ts.Close()
	// A legacy notification outside any session, which the server refuses.
	m := &Outgoing{Method: "notifications/initialized", Version: mcp.LatestLegacyVersion,
		Line: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)}
	err := HTTP(ts.URL, nil).Notify(context.Background(), m)
	sent := <-bodies
	var want struct{ Error *mcp.Error }
	if json.Unmarshal(sent, &want) != nil || want.Error == nil {
		t.Fatalf("the server did not refuse the notification with a JSON-RPC error: %s", sent)
	}
	var perr *mcp.Error
	if !errors.As(err, &perr) || !reflect.DeepEqual(perr, want.Error) {
		t.Errorf("Notify: got %#v, want the error the server sent, %s", err, sent)
	}

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no notifications here", http.StatusForbidden)
	}))
	defer bare.Close()
	err = HTTP(bare.URL, nil).Notify(context.Background(), m)
	var herr *HTTPError
	if !errors.As(err, &herr) || herr.StatusCode != http.StatusForbidden || herr.Body != "no notifications here" {
		t.Errorf("Notify: got %#v, want an HTTPError 403 with the body", err)
	}
}
