package mcptest

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// Headers returns the headers a modern request of method must carry over
// Streamable HTTP, with Mcp-Name set to name (a tool's name or a resource's
// URI) unless name is "".
func Headers(method, name string) map[string]string {
	h := map[string]string{"Mcp-Protocol-Version": Version, "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

// SetPostHeaders sets in h the headers every POST of a conforming client
// carries (Accept and Content-Type), then the headers hdr: an empty value
// in hdr removes that header instead.
func SetPostHeaders(h http.Header, hdr map[string]string) {
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Content-Type", "application/json")
	for k, v := range hdr {
		if v == "" {
			h.Del(k)
		} else {
			h.Set(k, v)
		}
	}
}

// NewPost returns the POST of body to url that a conforming client sends,
// with the headers hdr besides, as [SetPostHeaders] sets them.
func NewPost(ctx context.Context, url, body string, hdr map[string]string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	SetPostHeaders(req.Header, hdr)
	return req, nil
}

// Response is what a request got back, its body read whole.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends req through hc (http.DefaultClient if nil) and reads the
// response whole.
func Do(hc *http.Client, req *http.Request) (Response, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	return Response{resp.StatusCode, resp.Header, string(b)}, nil
}

// Post sends the POST of body to url that [NewPost] makes, through hc
// (http.DefaultClient if nil), and reads the response whole.
func Post(ctx context.Context, hc *http.Client, url, body string, hdr map[string]string) (Response, error) {
	req, err := NewPost(ctx, url, body, hdr)
	if err != nil {
		return Response{}, err
	}
	return Do(hc, req)
}

// Dial writes req on a connection of its own and returns the connection
// unread, for a test that closes it, whole or its sending side only, while
// the server works; the connection closes when the test ends.
func Dial(t testing.TB, req *http.Request) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	return conn
}
