package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// BenchmarkHTTPFloor compares the Streamable HTTP server, serving a tool
// like chapter 01's, with a floor: a plain net/http server that reads the
// id and method of each POST with encoding/json and answers canned bytes.
// Both run in this process, behind the same timeouts, and are loaded the
// same way: 16 clients on kept-alive connections, each sending its next
// request when it has read the reply. The targets take turns, round by
// round, so that both see the same machine; the metric x-floor is the
// server's calls/s over the floor's (the target: 0.9 on success,
// 0.85 on a tool error). Run it with
//
//	go test -run '^$' -bench HTTPFloor -benchtime 20000x ./mcp/
func BenchmarkHTTPFloor(b *testing.B) {
	for _, bc := range []struct{ name, title string }{{"success", "Dune"}, {"toolError", "Nothing"}} {
		b.Run(bc.name, func(b *testing.B) {
			body := mcptest.ToolCall("1", "get_author", `{"title":"`+bc.title+`"}`)
			ours := startHTTPTarget(b, newBenchHTTPServer().HTTPHandler(nil))
			floor := startHTTPTarget(b, http.HandlerFunc(floorHandler))
			const clients, rounds = 16, 10
			perRound := max(b.N/rounds, clients)
			var oursTime, floorTime time.Duration
			b.ResetTimer()
			for range rounds {
				oursTime += loadHTTP(b, ours, body, clients, perRound)
				floorTime += loadHTTP(b, floor, body, clients, perRound)
			}
			calls := float64(rounds * perRound)
			b.ReportMetric(calls/oursTime.Seconds(), "calls/s")
			b.ReportMetric(calls/floorTime.Seconds(), "floor-calls/s")
			b.ReportMetric(floorTime.Seconds()/oursTime.Seconds(), "x-floor")
		})
	}
}

// newBenchHTTPServer returns a server with chapter 01's tool, logging
// through the default text handler into a buffered discarding writer, as
// stderr is written.
func newBenchHTTPServer() *Server {
	s := NewServer("Bookshop", "1.0.0", nil)
	bufferLogTo(s, io.Discard, logFlushDelay)
	catalog := map[string]string{"Dune": "Frank Herbert"}
	AddTool(s, Tool{Name: "get_author"}, func(ctx context.Context, a benchAuthorArgs) (string, error) {
		author, ok := catalog[a.Title]
		if !ok {
			return "", fmt.Errorf("No book titled '%s' in the catalog.", a.Title)
		}
		return author, nil
	})
	return s
}

// floorHandler answers a POST with canned bytes around its id.
func floorHandler(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err != nil || json.Unmarshal(body, &m) != nil || m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"Frank Herbert"}]}}`+"\n", m.ID)
}

// startHTTPTarget serves h on a loopback port, with the timeouts
// ServeStreamableHTTP sets, until the benchmark ends, and returns the
// address.
func startHTTPTarget(b *testing.B, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: httpReadHeaderTimeout, ReadTimeout: httpReadTimeout,
		WriteTimeout: httpWriteTimeout, IdleTimeout: httpIdleTimeout}
	go hs.Serve(ln)
	b.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// loadHTTP has clients send calls POSTs of body to addr in all, each on its
// own connection, and returns how long they took. Each reply must be a
// 200 with a JSON-RPC result.
func loadHTTP(b *testing.B, addr, body string, clients, calls int) time.Duration {
	req := []byte("POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAccept: application/json, text/event-stream\r\n" +
		"Content-Type: application/json\r\nMcp-Protocol-Version: " + ModernVersion + "\r\nMcp-Method: tools/call\r\n" +
		"Mcp-Name: get_author\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	conns := make([]*rawHTTPConn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns[i] = &rawHTTPConn{c: c, br: bufio.NewReader(c)}
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	start := time.Now()
	for i, c := range conns {
		n := calls / clients
		if i < calls%clients {
			n++
		}
		wg.Go(func() {
			for range n {
				if err := c.roundTrip(req); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return elapsed
}

// rawHTTPConn is a kept-alive client connection speaking just enough
// HTTP/1.1 to time a server, not the client.
type rawHTTPConn struct {
	c   net.Conn
	br  *bufio.Reader
	buf []byte
}

// roundTrip sends req and reads the reply, checking it is a 200 whose body
// holds a result.
func (c *rawHTTPConn) roundTrip(req []byte) error {
	if _, err := c.c.Write(req); err != nil {
		return err
	}
	status, err := c.br.ReadSlice('\n')
	if err != nil {
		return err
	}
	ok := bytes.HasPrefix(status, []byte("HTTP/1.1 200 "))
	length := -1
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		if k, v, found := bytes.Cut(line, []byte(":")); found && bytes.EqualFold(k, []byte("Content-Length")) {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if length < 0 {
		return fmt.Errorf("a reply without Content-Length")
	}
	c.buf = slices.Grow(c.buf[:0], length)[:length]
	if _, err := io.ReadFull(c.br, c.buf); err != nil {
		return err
	}
	if !ok || !bytes.Contains(c.buf, []byte(`"result":`)) {
		return fmt.Errorf("reply %q %s, want 200 with a result", status, c.buf)
	}
	return nil
}
