package mcp

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

var soak = flag.Bool("soak", false, "run the soak tests: 200,000 calls over stdio and 200,000 over HTTP")

// soakCalls is how many calls each soak test makes; soakChecks is how many
// times it measures the heap and the goroutines on the way.
const (
	soakCalls  = 200_000
	soakChecks = 10
)

// soakRequests are the calls a soak cycles through: a tool's result, a tool
// error, a protocol error, a resource and a missing one, an unknown tool.
var soakRequests = []struct{ method, name, params, want string }{
	{"tools/call", "get_author", `"name":"get_author","arguments":{"title":"Dune"}`, `"text":"Frank Herbert"`},
	{"tools/call", "get_author", `"name":"get_author","arguments":{"title":"Nothing"}`, `"isError":true`},
	{"tools/call", "refuse", `"name":"refuse"`, `"code":-32602,"message":"refused"`},
	{"resources/read", "books://Dune", `"uri":"books://Dune"`, `"text":"found"`},
	{"resources/read", "books://Nothing", `"uri":"books://Nothing"`, `"data":{"uri":"books://Nothing"}`},
	{"tools/call", "nope", `"name":"nope"`, `"message":"Unknown tool: nope"`},
}

// soakLine is the i-th request of a soak, with id i.
func soakLine(i int) (line []byte, want string) {
	r := soakRequests[i%len(soakRequests)]
	return []byte(mcptest.Request(strconv.Itoa(i), r.method, r.params)), r.want
}

// newSoakServer is the fuzz server's kinds of tools and resources, keeping
// nothing from one call to the next.
func newSoakServer() *Server {
	s := NewServer("soak", "1.0.0", &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	AddTool(s, Tool{Name: "get_author"}, func(ctx context.Context, args struct {
		Title string `json:"title"`
	}) (string, error) {
		if args.Title != "Dune" {
			return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
		}
		return "Frank Herbert", nil
	})
	AddTool(s, Tool{Name: "refuse"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", &Error{Code: CodeInvalidParams, Message: "refused"}
	})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "books://{title}", Name: "book"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		if req.Params["title"] != "Dune" {
			return "", ResourceNotFound("No book titled '%s' in the catalog.", req.Params["title"])
		}
		return "found", nil
	})
	return s
}

// soakMeter records the heap in use after a collection and the number of
// goroutines, at checkpoints.
type soakMeter struct {
	heap       []uint64
	goroutines []int
}

func (m *soakMeter) check() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.heap = append(m.heap, ms.HeapInuse)
	m.goroutines = append(m.goroutines, runtime.NumGoroutine())
}

// verify fails if the heap grew over the run (the last half of the
// checkpoints above twice the first plus 4 MiB), or if goroutines are left
// after it beyond those at the start.
func (m *soakMeter) verify(t *testing.T, before, after int) {
	limit := 2*m.heap[0] + 4<<20
	for i, h := range m.heap[len(m.heap)/2:] {
		if h > limit {
			t.Errorf("heap in use at checkpoint %d: %d bytes, over %d (first checkpoint %d)", len(m.heap)/2+i, h, limit, m.heap[0])
		}
	}
	if after > before {
		t.Errorf("%d goroutines after the soak, %d before", after, before)
	}
	t.Logf("%d calls; heap in use after GC at each checkpoint (KiB): %v; goroutines: %v; before %d, after %d",
		soakCalls, kib(m.heap), m.goroutines, before, after)
}

func kib(bs []uint64) []uint64 {
	out := make([]uint64, len(bs))
	for i, b := range bs {
		out[i] = b >> 10
	}
	return out
}

// settledGoroutines returns the number of goroutines once those ending
// have ended: it waits (a bounded time) for the count to stop falling.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(10 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// TestSoakStdio: 200,000 calls on one stream, each answered correctly,
// with a bounded heap and no goroutine left.
func TestSoakStdio(t *testing.T) {
	if !*soak {
		t.Skip("a long test: run with -soak")
	}
	before := settledGoroutines()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- newSoakServer().Serve(context.Background(), inR, outW); outW.Close() }()
	replies := bufio.NewReader(outR)
	var m soakMeter
	for i := range soakCalls {
		if i%(soakCalls/soakChecks) == 0 {
			m.check()
		}
		line, want := soakLine(i)
		if _, err := inW.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
		reply, err := replies.ReadBytes('\n')
		if err != nil || !bytes.HasPrefix(reply, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,`, i)) || !bytes.Contains(reply, []byte(want)) {
			t.Fatalf("call %d: %q, %v; want %s", i, reply, err, want)
		}
	}
	m.check()
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	m.verify(t, before, settledGoroutines())
}

// soakClients is how many clients share the HTTP soak's calls.
const soakClients = 4

// TestSoakHTTP: 200,000 calls over Streamable HTTP from a few keep-alive
// clients, each answered correctly, with a bounded heap and no goroutine
// left once the server has shut down.
func TestSoakHTTP(t *testing.T) {
	if !*soak {
		t.Skip("a long test: run with -soak")
	}
	before := settledGoroutines()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, shutdown := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- newSoakServer().ServeStreamableHTTP(ctx, ln, nil) }()
	url := "http://" + ln.Addr().String() + DefaultHTTPPath
	tr := &http.Transport{MaxIdleConnsPerHost: soakClients}
	hc := &http.Client{Transport: tr}
	var m soakMeter
	for chunk := range soakChecks {
		m.check()
		var wg sync.WaitGroup
		errs := make(chan error, soakClients)
		for c := range soakClients {
			wg.Go(func() {
				for i := chunk*soakCalls/soakChecks + c; i < (chunk+1)*soakCalls/soakChecks; i += soakClients {
					if err := soakPost(hc, url, i); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	m.check()
	tr.CloseIdleConnections()
	shutdown()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	m.verify(t, before, settledGoroutines())
}

// soakPost makes the i-th call of the HTTP soak and checks its reply.
func soakPost(hc *http.Client, url string, i int) error {
	line, want := soakLine(i)
	r := soakRequests[i%len(soakRequests)]
	resp, err := mcptest.Post(context.Background(), hc, url, string(line), mcptest.Headers(r.method, r.name))
	if err != nil {
		return fmt.Errorf("call %d: %v", i, err)
	}
	if !strings.HasPrefix(resp.Body, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, i)) || !strings.Contains(resp.Body, want) {
		return fmt.Errorf("call %d: %d %q; want %s", i, resp.Status, resp.Body, want)
	}
	return nil
}
