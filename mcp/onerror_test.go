package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// newObservedServer returns an echo server (with the wait tool) whose
// OnError sends each event on the returned channel.
func newObservedServer(started chan<- context.Context) (*Server, *logBuffer, <-chan ErrorEvent) {
	events := make(chan ErrorEvent, 10)
	s, logs := newEchoServer(&Options{OnError: func(ctx context.Context, ev ErrorEvent) { events <- ev }})
	addWaitTool(s, started, nil)
	AddTool(s, Tool{Name: "stock"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", fmt.Errorf("the warehouse did not answer: %w", context.DeadlineExceeded)
	})
	AddTool(s, Tool{Name: "first"}, func(ctx context.Context, _ struct{}) (string, error) {
		var authors []string
		return authors[0], nil
	})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "shelf://{n}", Name: "shelf"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		return "", errors.New("the shelf is locked")
	})
	return s, logs, events
}

// nextEvent returns the next event OnError saw.
func nextEvent(t *testing.T, events <-chan ErrorEvent) ErrorEvent {
	t.Helper()
	select {
	case ev := <-events:
		return ev
	case <-time.After(testTimeout):
		t.Fatal("OnError was not called")
	}
	return ErrorEvent{}
}

func TestOnErrorSeesEveryFailure(t *testing.T) {
	s, _, events := newObservedServer(nil)
	c := connect(t, s)
	var runtimeErr runtime.Error
	var perr *Error
	var argErr *ArgumentsError
	var panicErr *PanicError
	for _, tt := range []struct {
		name, line, method, what, id string
		err                          func(error) bool
		toolError                    bool // else a protocol error
	}{
		{"handler error", mcptest.ToolCall("1", "echo", `{"text":""}`), "tools/call", "echo", "1",
			func(err error) bool { return err.Error() == "nothing to echo" }, true},
		{"deadline", mcptest.ToolCall("2", "stock", `{}`), "tools/call", "stock", "2",
			func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }, true},
		{"validation", mcptest.ToolCall(`"v"`, "echo", `{"text":42}`), "tools/call", "echo", `"v"`,
			func(err error) bool { return errors.As(err, &argErr) && strings.HasPrefix(argErr.Message, "/text: ") }, true},
		{"panic", mcptest.ToolCall("3", "first", `{}`), "tools/call", "first", "3",
			func(err error) bool {
				return errors.As(err, &panicErr) && strings.Contains(string(panicErr.Stack), "goroutine") &&
					errors.As(err, &runtimeErr) && strings.Contains(runtimeErr.Error(), "index out of range")
			}, true},
		{"unknown tool", mcptest.ToolCall("4", "nothing", `{}`), "tools/call", "nothing", "4",
			func(err error) bool { return errors.As(err, &perr) && perr.Message == "Unknown tool: nothing" }, false},
		{"withheld cause", mcptest.ReadCall("5", "shelf://1"), "resources/read", "shelf://1", "5",
			func(err error) bool { return err.Error() == "the shelf is locked" }, false},
		{"unparseable", `{"jsonrpc":`, "", "", "",
			func(err error) bool { return errors.As(err, &perr) && perr.Code == CodeParseError }, false},
	} {
		line := c.call(tt.line)
		ev := nextEvent(t, events)
		if ev.Method != tt.method || ev.Name != tt.what || string(ev.ID) != tt.id {
			t.Errorf("%s: event for %q %q id %s, want %q %q id %s", tt.name, ev.Method, ev.Name, ev.ID, tt.method, tt.what, tt.id)
		}
		if !tt.err(ev.Err) {
			t.Errorf("%s: Err = %v (%T)", tt.name, ev.Err, ev.Err)
		}
		// What the event says was sent is what the client received.
		var sent mcptest.Reply
		json.Unmarshal([]byte(line), &sent)
		if tt.toolError {
			res, _ := json.Marshal(ev.ToolResult)
			if ev.ToolResult == nil || ev.ProtocolError != nil || !strings.Contains(string(sent.Result), string(res[:len(res)-1])) {
				t.Errorf("%s: event sent %s / %v; the client received %s", tt.name, res, ev.ProtocolError, line)
			}
		} else if ev.ProtocolError == nil || ev.ToolResult != nil || sent.Error == nil || ev.ProtocolError.Code != sent.Error.Code || ev.ProtocolError.Message != sent.Error.Message {
			t.Errorf("%s: event sent %v / %v; the client received %s", tt.name, ev.ProtocolError, ev.ToolResult, line)
		}
	}
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	select {
	case ev := <-events:
		t.Errorf("an event for a success: %+v", ev)
	default:
	}
}

func TestToolPanicLogCarriesTheRequestID(t *testing.T) {
	s, logs, _ := newObservedServer(nil)
	c := connect(t, s)
	c.call(mcptest.ToolCall(`"p-7"`, "first", `{}`))
	lines := logs.lines()
	var entry struct{ Msg, Tool, ID, Panic, Stack string }
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &entry) != nil {
		t.Fatalf("log %q, want one entry", lines)
	}
	if entry.Msg != "panic in tool handler" || entry.Tool != "first" || entry.ID != `"p-7"` ||
		!strings.Contains(entry.Panic, "index out of range") || !strings.Contains(entry.Stack, "goroutine") {
		t.Errorf("log entry %s, want the tool, the id \"p-7\", the panic and the stack", lines[0])
	}
	c.close()
}

func TestOnErrorSeesACancelledRequest(t *testing.T) {
	started := make(chan context.Context, 1)
	s, logs, events := newObservedServer(started)
	c := connect(t, s)
	c.send(mcptest.ToolCall(`"slow"`, "wait", "{}"))
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}`)
	ev := nextEvent(t, events)
	if ev.Method != "tools/call" || ev.Name != "wait" || string(ev.ID) != `"slow"` || !errors.Is(ev.Err, context.Canceled) ||
		ev.ToolResult != nil || ev.ProtocolError != nil {
		t.Errorf("event %+v, want the cancelled call, with nothing sent", ev)
	}
	wantEchoOK(t, c.call(echoOK)) // and no reply to the cancelled call
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	want := `{"level":"INFO","msg":"request cancelled","method":"tools/call","tool":"wait","id":"\"slow\""}`
	if lines := logs.lines(); len(lines) != 1 || !strings.HasSuffix(lines[0], want[1:]) {
		t.Errorf("log %q, want one entry ending %s", lines, want[1:])
	}
}

// Over HTTP, closing the request cancels it; in a legacy session,
// notifications/cancelled does too.
func TestOnErrorSeesACancelledHTTPRequest(t *testing.T) {
	started := make(chan context.Context, 1)
	s, _, events := newObservedServer(started)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()

	ctx, cancel := context.WithCancel(context.Background())
	body := mcptest.ToolCall("9", "wait", "{}")
	req := newHTTPRequest(t, ctx, "POST", ts.URL, body, mcptest.Headers("tools/call", "wait"))
	done := make(chan error)
	go func() {
		_, err := http.DefaultClient.Do(req)
		done <- err
	}()
	<-started
	cancel()
	<-done
	if ev := nextEvent(t, events); string(ev.ID) != "9" || !errors.Is(ev.Err, context.Canceled) || ev.ToolResult != nil {
		t.Errorf("closing the request: event %+v, want the cancelled call", ev)
	}

	hdr := map[string]string{"Mcp-Session-Id": httpInitSession(t, ts.URL)}
	req = newHTTPRequest(t, context.Background(), "POST", ts.URL, `{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}}`, hdr)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("a response: %d", resp.StatusCode)
		}
		done <- err
	}()
	<-started
	httpSend(t, "POST", ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`, hdr)
	if ev := nextEvent(t, events); string(ev.ID) != `"w"` || !errors.Is(ev.Err, context.Canceled) || ev.ToolResult != nil {
		t.Errorf("notifications/cancelled in a session: event %+v, want the cancelled call", ev)
	}
	if err := <-done; err == nil || strings.HasPrefix(err.Error(), "a response") {
		t.Errorf("the cancelled request got %v, want no response", err)
	}
}
