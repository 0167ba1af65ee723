package mcp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// logWatch is a log that a test can wait on: every line the server logs,
// DEBUG included, kept in order.
type logWatch struct {
	mu      sync.Mutex
	text    strings.Builder
	changed chan struct{} // closed and replaced at each write
}

// newLogWatch returns an empty log and the server options that log to it.
func newLogWatch() (*logWatch, *Options) {
	l := &logWatch{changed: make(chan struct{})}
	return l, &Options{Logger: slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

func (l *logWatch) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text.Write(p)
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

// String returns what was logged so far.
func (l *logWatch) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// await waits until the log holds a line with every one of texts, at most
// testTimeout, and returns that line.
func (l *logWatch) await(t testing.TB, texts ...string) string {
	t.Helper()
	deadline := time.NewTimer(testTimeout)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		for line := range strings.Lines(l.text.String()) {
			if containsAll(line, texts) {
				l.mu.Unlock()
				return line
			}
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("no log line holding %q within %v; the log:\n%s", texts, testTimeout, l.String())
		}
	}
}

// containsAll reports whether s holds every one of texts.
func containsAll(s string, texts []string) bool {
	for _, text := range texts {
		if !strings.Contains(s, text) {
			return false
		}
	}
	return true
}

// holdArgs are the arguments of the hold tool.
type holdArgs struct {
	Anyway bool `json:"anyway,omitempty"` // answer when cancelled, rather than return the cancellation
}

// addHoldTool adds the tool hold, which sends its context on started and
// waits: until release is closed, and returns "released"; or until its
// context ends, and returns the cancellation, or with anyway a result.
func addHoldTool(s *Server, started chan<- context.Context, release <-chan struct{}) {
	AddTool(s, Tool{Name: "hold"}, func(ctx context.Context, a holdArgs) (string, error) {
		started <- ctx
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			if a.Anyway {
				return "answered anyway", nil
			}
			return "", ctx.Err()
		}
	})
}

// closedServer is a server of the hold tool over HTTP, whose log and
// observed outcomes a test reads.
type closedServer struct {
	url     string
	handler *httpHandler
	log     *logWatch
	started chan context.Context
	release chan struct{}
	ends    <-chan observed
}

// newClosedServer starts a closedServer with opts.
func newClosedServer(t *testing.T, opts *HTTPOptions) *closedServer {
	log, sopts := newLogWatch()
	observe, ends := recorder()
	sopts.Observe = observe
	s := NewServer("closed", "1.0.0", sopts)
	cs := &closedServer{log: log, started: make(chan context.Context, 4), release: make(chan struct{}), ends: ends}
	addHoldTool(s, cs.started, cs.release)
	cs.handler = s.HTTPHandler(opts).(*httpHandler)
	ts := httptest.NewServer(cs.handler)
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		select {
		case <-cs.release:
		default:
			close(cs.release) // a handler a failed test left waiting
		}
	})
	cs.url = ts.URL
	return cs
}

// holdCall is a tools/call of hold with id 7, in the era given.
func holdCall(modern, anyway bool) string {
	args := "{}"
	if anyway {
		args = `{"anyway":true}`
	}
	if modern {
		return mcptest.ToolCall("7", "hold", args)
	}
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hold","arguments":` + args + `}}`
}

// open sends body, a call of hold, on a connection of its own, with the
// headers of its era (in a session of its own for the legacy era), and
// returns the connection once the handler runs, and its context.
func (cs *closedServer) open(t *testing.T, modern bool, body string) (net.Conn, context.Context, string) {
	t.Helper()
	hdr := mcptest.Headers("tools/call", "hold")
	sid := ""
	if !modern {
		sid = httpInitSession(t, cs.url)
		nextEnd(t, cs.ends)
		hdr = map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"}
	}
	conn := mcptest.Dial(t, newHTTPRequest(t, context.Background(), http.MethodPost, cs.url, body, hdr))
	select {
	case ctx := <-cs.started:
		return conn, ctx, sid
	case <-time.After(testTimeout):
		t.Fatal("the handler did not start")
		return nil, nil, ""
	}
}

// closeConn closes the client's side of conn: its sending side only (a
// half-close), or the whole connection.
func closeConn(t *testing.T, conn net.Conn, half bool) {
	t.Helper()
	var err error
	if half {
		err = conn.(*net.TCPConn).CloseWrite()
	} else {
		err = conn.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// readReply reads what the server sent back on a half-closed conn, until
// it closes it: a response, or nothing.
func readReply(t *testing.T, conn net.Conn) (status int, body string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(testTimeout))
	br := bufio.NewReader(conn)
	if _, err := br.Peek(1); err == io.EOF {
		return 0, ""
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading the reply: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the reply's body: %v", err)
	}
	return resp.StatusCode, string(b)
}

// TestHTTPClosedByEra closes a request while its handler runs, its sending
// side only or whole, in each era. Up to 2025-11-25 the handler runs on
// and its reply is written; in 2026-07-28 the handler is cancelled, and
// its reply is dropped only if it returns the cancellation. A reply written
// after the close is logged so, once; the observer sees what the request
// ended as.
func TestHTTPClosedByEra(t *testing.T) {
	for _, tt := range []struct {
		name         string
		modern, half bool
		anyway       bool   // the modern handler answers its cancellation
		want         string // the reply's text, or "" for none
	}{
		{"legacy/half-close", false, true, false, "released"},
		{"legacy/close", false, false, false, "released"},
		{"modern/half-close", true, true, false, ""},
		{"modern/close", true, false, false, ""},
		{"modern/half-close/answered", true, true, true, "answered anyway"},
		{"modern/close/answered", true, false, true, "answered anyway"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := newClosedServer(t, nil)
			conn, ctx, _ := cs.open(t, tt.modern, holdCall(tt.modern, tt.anyway))
			closeConn(t, conn, tt.half)
			if tt.modern {
				waitCancelled(t, ctx, "the closed request's handler")
			} else {
				cs.log.await(t, "level=DEBUG", "its handler runs on", "id=7")
				if ctx.Err() != nil {
					t.Fatalf("the session era's handler was cancelled (%v) by the closed connection", context.Cause(ctx))
				}
				close(cs.release)
			}
			o := nextEnd(t, cs.ends)
			if tt.want == "" {
				cs.log.await(t, `msg="request cancelled"`, "tool=hold", "id=7")
				if !o.out.Cancelled {
					t.Errorf("observed %+v, want a cancellation", o.out)
				}
			} else {
				cs.log.await(t, `msg="the client closed its side before the reply"`, "tool=hold", "id=7")
				if o.out.Cancelled || o.out.ToolResult == nil || o.out.ToolResult.IsError {
					t.Errorf("observed %+v, want the result", o.out)
				}
			}
			if tt.half {
				status, body := readReply(t, conn)
				switch {
				case tt.want == "" && status != 0:
					t.Errorf("got %d %s, want no reply", status, body)
				case tt.want != "" && (status != http.StatusOK || !strings.Contains(body, `"text":"`+tt.want+`"`)):
					t.Errorf("got %d %s, want 200 with %q", status, body, tt.want)
				}
			}
			if n := strings.Count(cs.log.String(), "closed its side"); tt.want != "" && n != 1 {
				t.Errorf("the close is logged %d times, want once:\n%s", n, cs.log.String())
			}
		})
	}
}

// TestHTTPSessionEndCancelsOrphans: a session-era handler whose client
// closed its request runs on until the session ends (DELETE, expiry),
// notifications/cancelled names it, or the server shuts down; each of
// those cancels it, with nothing written back, and the log says why.
func TestHTTPSessionEndCancelsOrphans(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opts  *HTTPOptions
		end   func(t *testing.T, cs *closedServer, sid string)
		cause error  // of the handler's context
		log   string // what the log line says of it
	}{
		{"delete", nil, func(t *testing.T, cs *closedServer, sid string) {
			if r := httpSend(t, http.MethodDelete, cs.url, "", map[string]string{"Mcp-Session-Id": sid}); r.Status != http.StatusNoContent {
				t.Fatalf("DELETE: %d %s", r.Status, r.Body)
			}
		}, errSessionEnded, `cause="the session ended"`},
		{"cancelled", nil, func(t *testing.T, cs *closedServer, sid string) {
			hdr := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"}
			r := httpSend(t, http.MethodPost, cs.url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`, hdr)
			if r.Status != http.StatusAccepted {
				t.Fatalf("notifications/cancelled: %d %s", r.Status, r.Body)
			}
		}, context.Canceled, "id=7\n"},
		// The session expires while nothing uses it: its own timer, armed
		// when the orphan began, ends it. The idle timeout is shortened only
		// now, since a short one from the start could end the session before
		// its call arrives on a busy machine.
		{"expiry", nil, func(t *testing.T, cs *closedServer, sid string) {
			st := cs.handler.sessions
			st.mu.Lock()
			st.idle = time.Millisecond
			hs := st.m[sid]
			st.mu.Unlock()
			hs.mu.Lock()
			defer hs.mu.Unlock()
			if hs.expiry == nil {
				t.Fatal("the session has an orphan, and no timer to end it when it expires")
			}
			hs.watchExpiry()
		}, errSessionExpired, `cause="the session expired"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := newClosedServer(t, tt.opts)
			conn, ctx, sid := cs.open(t, false, holdCall(false, false))
			closeConn(t, conn, true)
			cs.log.await(t, "its handler runs on", "id=7")
			tt.end(t, cs, sid)
			waitCancelled(t, ctx, "the orphan")
			if cause := context.Cause(ctx); !errors.Is(cause, tt.cause) {
				t.Errorf("cancelled by %v, want %v", cause, tt.cause)
			}
			cs.log.await(t, `msg="request cancelled"`, "id=7", tt.log)
			if o := nextEnd(t, cs.ends); !o.out.Cancelled {
				t.Errorf("observed %+v, want a cancellation", o.out)
			}
			if status, body := readReply(t, conn); status != 0 {
				t.Errorf("the cancelled orphan got %d %s, want no reply", status, body)
			}
		})
	}
}

// TestHTTPMaxOrphans: a session runs at most MaxOrphans handlers whose
// client closed its request; the next such handler is cancelled, and the
// log says so at WARN.
func TestHTTPMaxOrphans(t *testing.T) {
	cs := newClosedServer(t, &HTTPOptions{MaxOrphans: 1})
	sid := httpInitSession(t, cs.url)
	nextEnd(t, cs.ends)
	hdr := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"}
	var ctxs []context.Context
	for _, id := range []string{"1", "2"} {
		body := strings.Replace(holdCall(false, false), `"id":7`, `"id":`+id, 1)
		conn := mcptest.Dial(t, newHTTPRequest(t, context.Background(), http.MethodPost, cs.url, body, hdr))
		ctxs = append(ctxs, <-cs.started)
		closeConn(t, conn, false)
	}
	cs.log.await(t, "its handler runs on", "id=1")
	cs.log.await(t, "level=WARN", "too many handlers run on", "id=2", "limit=1")
	waitCancelled(t, ctxs[1], "the orphan beyond the limit")
	if !errors.Is(context.Cause(ctxs[1]), errTooManyOrphans) || ctxs[0].Err() != nil {
		t.Errorf("causes %v and %v, want the second orphan cancelled for the limit, the first running", context.Cause(ctxs[0]), context.Cause(ctxs[1]))
	}
	close(cs.release)
	cs.log.await(t, "closed its side before the reply", "id=1")
}

// TestServeStreamableHTTPShutdownCancelsOrphans: a session-era handler
// whose client has gone is cancelled when the server, shutting down,
// stops waiting for it.
func TestServeStreamableHTTPShutdownCancelsOrphans(t *testing.T) {
	log, sopts := newLogWatch()
	sopts.ShutdownTimeout = time.Millisecond
	s := NewServer("closed", "1.0.0", sopts)
	started := make(chan context.Context, 1)
	release := make(chan struct{})
	defer close(release)
	addHoldTool(s, started, release)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeStreamableHTTP(ctx, ln, nil) }()
	url := "http://" + ln.Addr().String() + DefaultHTTPPath
	sid := httpInitSession(t, url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"}
	conn := mcptest.Dial(t, newHTTPRequest(t, context.Background(), http.MethodPost, url, holdCall(false, false), hdr))
	hctx := <-started
	closeConn(t, conn, false)
	log.await(t, "its handler runs on", "id=7")
	stop()
	waitCancelled(t, hctx, "the orphan at shutdown")
	if !errors.Is(context.Cause(hctx), errShutdown) {
		t.Errorf("cancelled by %v, want the shutdown", context.Cause(hctx))
	}
	if err := <-served; err != nil {
		t.Errorf("ServeStreamableHTTP: %v", err)
	}
}
