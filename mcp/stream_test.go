package mcp

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

func TestServeLineTooLong(t *testing.T) {
	const limit = 256
	for _, size := range []int{limit + 1, 10 * limit, 200 << 10} { // the last is longer than the read buffer
		s, logs := newEchoServer(&Options{MaxLineBytes: limit})
		c := connect(t, s)
		long := mcptest.ToolCall("1", "echo", `{"text":"`+strings.Repeat("x", size)+`"}`)
		e := wantError(t, c.call(long), "1", CodeInvalidRequest)
		if want := "message longer than the 256-byte limit"; e.Data != want {
			t.Errorf("%d bytes: data %v, want %q", len(long), e.Data, want)
		}
		if n := len(logs.lines()); n != 1 {
			t.Errorf("%d bytes: %d log lines, want 1", len(long), n)
		}
		wantEchoOK(t, c.call(echoOK))
		if err := c.close(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
}

func TestServeLineWithinLimit(t *testing.T) {
	// A line longer than the read buffer but within the limit is served whole.
	s, _ := newEchoServer(&Options{MaxLineBytes: 1 << 20})
	c := connect(t, s)
	text := strings.Repeat("x", 200<<10)
	if r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "echo", `{"text":"`+text+`"}`))); !strings.Contains(string(r.Result), text) {
		t.Errorf("a 200 KiB line within the limit was not echoed")
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeDeepNesting(t *testing.T) {
	const depth = 100000
	deep := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
	deepArray := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	s, _ := newEchoServer(nil)
	c := connect(t, s)
	wantError(t, c.call(deep), "null", CodeParseError)
	wantEchoOK(t, c.call(echoOK))
	// Deep but within the decoder's bound, inside the arguments: the schema
	// rejects it.
	nested := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	if r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("2", "echo", `{"text":`+nested+`}`))); !strings.Contains(string(r.Result), `"isError":true`) {
		t.Errorf("deeply nested argument: %s, want a tool error", r.Result)
	}
	// A deep batch on a connection that takes batches.
	c.call(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`)
	wantError(t, c.call(deepArray), "null", CodeParseError)
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// newBlockingServer returns a server whose tool "wait" runs until its
// context is done or release is closed. Each call sends its context on
// started once running.
func newBlockingServer(opts *Options, started chan<- context.Context, release <-chan struct{}) *Server {
	s, _ := newEchoServer(opts)
	addWaitTool(s, started, release)
	return s
}

// addWaitTool adds the tool "wait", which sends its context on started and
// runs until that context is done or release is closed.
func addWaitTool(s *Server, started chan<- context.Context, release <-chan struct{}) {
	AddTool(s, Tool{Name: "wait"}, func(ctx context.Context, _ struct{}) (string, error) {
		started <- ctx
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-release:
			return "released", nil
		}
	})
}

// waitCancelled waits until ctx, the context of what, is done, as
// notifications/cancelled should make it.
func waitCancelled(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(testTimeout):
		t.Fatalf("notifications/cancelled did not cancel %s's context", what)
	}
}

func TestServeCancel(t *testing.T) {
	started := make(chan context.Context, 1)
	s := newBlockingServer(nil, started, nil)
	c := connect(t, s)
	c.send(mcptest.ToolCall(`"slow"`, "wait", "{}"))
	ctx := <-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"the user gave up"}}`)
	waitCancelled(t, ctx, "the handler")
	// The next reply is the next request's: none comes for the cancelled one.
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestServeCancelAfterQuickCalls: a handler that begins while the handoff
// is still armed for the quick one before it is handed over all the same,
// and its cancellation, read by the next reader, reaches it. It runs in a
// synctest bubble, whose clock moves only when every goroutine in it
// waits, so the handler begins exactly half a delay after the quick call.
func TestServeCancelAfterQuickCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan context.Context, 1)
		s := newBlockingServer(nil, started, nil)
		c := connect(t, s)
		for range 20 {
			wantEchoOK(t, c.call(echoOK))
		}
		c.send(echoOK)
		time.Sleep(handoffDelay / 2)
		c.send(mcptest.ToolCall("7", "wait", "{}"))
		ctx := <-started
		wantEchoOK(t, c.recv())
		c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
		waitCancelled(t, ctx, "the handler")
		wantEchoOK(t, c.call(echoOK))
		if err := c.close(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
}

func TestServeShutdownWaitsForHandlers(t *testing.T) {
	started := make(chan context.Context, 1)
	release := make(chan struct{})
	s := newBlockingServer(nil, started, release)
	c := connect(t, s)
	c.send(mcptest.ToolCall("1", "wait", "{}"))
	<-started
	c.in.Close()
	select {
	case err := <-c.done:
		t.Fatalf("Serve returned %v with a handler still running", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if r := mcptest.DecodeReply(t, c.recv()); !strings.Contains(string(r.Result), "released") {
		t.Errorf("the in-flight request's reply: %s", r.Result)
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

func TestServeShutdownTimeout(t *testing.T) {
	const timeout = 100 * time.Millisecond
	started := make(chan context.Context, 1)
	s := newBlockingServer(&Options{ShutdownTimeout: timeout}, started, make(chan struct{}))
	c := connect(t, s)
	c.send(mcptest.ToolCall("1", "wait", "{}"))
	<-started
	begin := time.Now()
	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
		if d := time.Since(begin); d < timeout {
			t.Errorf("Serve returned after %v, before the %v timeout", d, timeout)
		}
	case <-time.After(testTimeout):
		t.Fatal("Serve waited past its shutdown timeout for a handler that never returns")
	}
}

func TestServeConcurrently(t *testing.T) {
	// first waits for second; served one at a time, they would deadlock.
	s, _ := newTestServer(nil)
	secondRan := make(chan struct{})
	var calls atomic.Int32
	AddTool(s, Tool{Name: "first"}, func(ctx context.Context, _ struct{}) (string, error) {
		calls.Add(1)
		select {
		case <-secondRan:
			return "first", nil
		case <-time.After(testTimeout):
			return "", context.DeadlineExceeded
		}
	})
	AddTool(s, Tool{Name: "second"}, func(ctx context.Context, _ struct{}) (string, error) {
		calls.Add(1)
		close(secondRan)
		return "second", nil
	})
	c := connect(t, s)
	c.send(mcptest.ToolCall("1", "first", "{}"))
	c.send(mcptest.ToolCall("2", "second", "{}"))
	// Both replies come, in either order: once second's handler lets
	// first's return, the two responses race to the writer.
	want := map[string]string{"1": `"text":"first"`, "2": `"text":"second"`}
	for range 2 {
		r := mcptest.DecodeReply(t, c.recv())
		text, ok := want[string(r.ID)]
		if !ok || !strings.Contains(string(r.Result), text) || strings.Contains(string(r.Result), "isError") {
			t.Errorf("reply for %s: %s, want one result each for 1 and 2", r.ID, r.Result)
		}
		delete(want, string(r.ID))
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d handler calls, want 2", n)
	}
}

func TestServeBatchCancel(t *testing.T) {
	started := make(chan context.Context, 1)
	s := newBlockingServer(nil, started, nil)
	c := connect(t, s)
	c.call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`)
	wait := `{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"wait","arguments":{}}}`
	echo := `{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	c.send(`[` + wait + `,` + echo + `]`)
	// Sent at once, and on the side: a server whose reader runs the batch
	// would never read it, and one that registers the call late would miss
	// it.
	go io.WriteString(c.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}`+"\n")
	var ctx context.Context
	select {
	case ctx = <-started:
	case <-time.After(testTimeout):
		t.Fatal("the batch's wait call did not start")
	}
	waitCancelled(t, ctx, "the batch item")
	// The batch's reply has the other item's response, none for the
	// cancelled one.
	if got, want := c.recv(), `[{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"hi"}]}}]`; got != want {
		t.Errorf("batch reply %s, want %s", got, want)
	}
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}
