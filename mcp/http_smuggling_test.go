package mcp

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// TestHTTPLengthAndChunked: a request with both Content-Length and
// Transfer-Encoding is answered, and its connection then closed, as RFC 9112
// §6.1 requires, so that nothing after its body is read as a request.
func TestHTTPLengthAndChunked(t *testing.T) {
	s := NewServer("smuggling", "1.0.0", nil)
	AddTool(s, Tool{Name: "echo"}, func(ctx context.Context, _ struct{}) (string, error) { return "", nil })
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := mcptest.Request("1", "tools/list", "")
	req := "POST / HTTP/1.1\r\nHost: " + ts.Listener.Addr().String() + "\r\n" +
		"Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n" +
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n" +
		"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n" +
		strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second)) // bounds a kept-open connection
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"name":"echo"`) {
		t.Errorf("response: %d %s, want the tools/list result", resp.StatusCode, got)
	}
	if !resp.Close {
		t.Errorf("response headers %v: want Connection: close", resp.Header)
	}
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the response: read %d bytes, %v; want the connection closed", n, err)
	}
}
