package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// observed is one request an observer saw end.
type observed struct {
	info RequestInfo
	out  Outcome
}

// observerKey is the key under which the test observer puts a value in
// each request's context.
type observerKey struct{}

// recorder returns an Options.Observe that runs each request with
// "observed" under observerKey in its context and sends each request on
// the returned channel when it ends.
func recorder() (func(context.Context, RequestInfo) (context.Context, func(Outcome)), <-chan observed) {
	ends := make(chan observed, 100)
	observe := func(ctx context.Context, info RequestInfo) (context.Context, func(Outcome)) {
		return context.WithValue(ctx, observerKey{}, "observed"), func(out Outcome) {
			ends <- observed{info, out}
		}
	}
	return observe, ends
}

// nextEnd returns the next request the recorder saw end.
func nextEnd(t *testing.T, ends <-chan observed) observed {
	t.Helper()
	select {
	case o := <-ends:
		return o
	case <-time.After(testTimeout):
		t.Fatal("no request ended")
	}
	return observed{}
}

// noMoreEnds fails if the recorder saw another request end.
func noMoreEnds(t *testing.T, ends <-chan observed) {
	t.Helper()
	select {
	case o := <-ends:
		t.Errorf("an unexpected end: %+v", o)
	default:
	}
}

// newObservedToolServer returns a server whose Options.Observe is observe,
// and the buffer it logs into, with tools and a resource template that
// fail in every way a handler can:
//
//   - echo: a result, or a tool error for an empty text;
//   - refuse: a handler's protocol error, code -32001;
//   - stock: a tool error wrapping context.DeadlineExceeded;
//   - first: a panic (an index out of range);
//   - context: the value under observerKey in its context, as its result;
//   - unencodable: a result encoding/json cannot encode;
//   - wait: see addWaitTool;
//   - shelf://{n}: "missing" is not found, "locked" fails, "fallen"
//     panics, any other reads.
func newObservedToolServer(observe func(context.Context, RequestInfo) (context.Context, func(Outcome)), started chan<- context.Context) (*Server, *logBuffer) {
	s, logs := newEchoServer(&Options{Observe: observe})
	AddTool(s, Tool{Name: "refuse"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", &Error{Code: -32001, Message: "Not today"}
	})
	AddTool(s, Tool{Name: "stock"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", fmt.Errorf("the warehouse did not answer: %w", context.DeadlineExceeded)
	})
	AddTool(s, Tool{Name: "first"}, func(ctx context.Context, _ struct{}) (string, error) {
		var authors []string
		return authors[0], nil
	})
	AddTool(s, Tool{Name: "context"}, func(ctx context.Context, _ struct{}) (string, error) {
		v, _ := ctx.Value(observerKey{}).(string)
		return "context: " + v, nil
	})
	AddTool(s, Tool{Name: "unencodable"}, func(ctx context.Context, _ struct{}) (*CallToolResult, error) {
		return &CallToolResult{Content: []Content{}, StructuredContent: func() {}}, nil
	})
	AddTool(s, Tool{Name: "internal"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", Internal(errors.New(`relation "stock" does not exist`))
	})
	AddTool(s, Tool{Name: "price"}, func(ctx context.Context, a priceArgs) (price, error) {
		if a.Title == "Nothing" {
			return price{}, &ToolError{Text: "No such book.", Structured: map[string]string{"error": "not found"}}
		}
		return price{Title: a.Title, Price: -2}, nil
	})
	addWaitTool(s, started, nil)
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "shelf://{n}", Name: "shelf"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		switch req.Params["n"] {
		case "missing":
			return "", ResourceNotFound("No shelf %s.", req.Params["n"])
		case "locked":
			return "", errors.New("the shelf is locked")
		case "fallen":
			panic("the shelf fell")
		case "dusted":
			return "", ResourceFailure("Shelf %s is being dusted; try again in a minute.", req.Params["n"])
		}
		return "books", nil
	})
	return s, logs
}

// priceArgs and price are the arguments and the structured result of a
// tool whose results may not fit its output schema.
type (
	priceArgs struct {
		Title string `json:"title"`
	}
	price struct {
		Title string  `json:"title"`
		Price float64 `json:"price" mcp:"minimum=0"`
	}
)

func TestObserveSeesEachOutcome(t *testing.T) {
	observe, ends := recorder()
	s, logs := newObservedToolServer(observe, nil)
	c := connect(t, s)
	var argErr *ArgumentsError
	var panicErr *PanicError
	var runtimeErr runtime.Error
	var perr *Error
	for _, tt := range []struct {
		name, line string
		id         string
		method     string
		what       string
		row        string
		code       int // of the protocol error; 0 for a result
		toolError  bool
		err        func(error) bool
	}{
		{"result", echoOK, `"ok"`, "tools/call", "echo", "", 0, false, func(err error) bool { return err == nil }},
		{"tool error", mcptest.ToolCall("1", "echo", `{"text":""}`), "1", "tools/call", "echo", "tool-error", 0, true,
			func(err error) bool { return err != nil && err.Error() == "nothing to echo" }},
		{"deadline", mcptest.ToolCall(`"d"`, "stock", `{}`), `"d"`, "tools/call", "stock", "tool-error", 0, true,
			func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
		{"invalid arguments", mcptest.ToolCall("2", "echo", `{"text":42}`), "2", "tools/call", "echo", "invalid-arguments", 0, true,
			func(err error) bool { return errors.As(err, &argErr) && strings.HasPrefix(argErr.Message, "/text: ") }},
		{"panic", mcptest.ToolCall("3", "first", `{}`), "3", "tools/call", "first", "tool-panic", 0, true,
			func(err error) bool {
				return errors.As(err, &panicErr) && strings.Contains(string(panicErr.Stack), "goroutine") &&
					errors.As(err, &runtimeErr) && strings.Contains(runtimeErr.Error(), "index out of range")
			}},
		{"handler's protocol error", mcptest.ToolCall("4", "refuse", `{}`), "4", "tools/call", "refuse", "handler-error", -32001, false,
			func(err error) bool { return errors.As(err, &perr) && perr.Message == "Not today" }},
		{"unknown tool", mcptest.ToolCall("5", "nothing", `{}`), "5", "tools/call", "nothing", "unknown-tool", CodeInvalidParams, false,
			func(err error) bool { return errors.As(err, &perr) && perr.Message == "Unknown tool: nothing" }},
		{"read", mcptest.ReadCall("6", "shelf://1"), "6", "resources/read", "shelf://1", "", 0, false, func(err error) bool { return err == nil }},
		{"not found", mcptest.ReadCall("7", "shelf://missing"), "7", "resources/read", "shelf://missing", "resource-not-found", CodeInvalidParams, false,
			func(err error) bool { return errors.As(err, &perr) && perr.Message == "No shelf missing." }},
		{"withheld cause", mcptest.ReadCall("8", "shelf://locked"), "8", "resources/read", "shelf://locked", "resource-failed", CodeInternalError, false,
			func(err error) bool { return err != nil && err.Error() == "the shelf is locked" }},
		{"resource panic", mcptest.ReadCall("9", "shelf://fallen"), "9", "resources/read", "shelf://fallen", "resource-failed", CodeInternalError, false,
			func(err error) bool { return errors.As(err, &panicErr) && panicErr.Value == "the shelf fell" }},
		{"list", mcptest.Request("10", "tools/list", ""), "10", "tools/list", "", "", 0, false,
			func(err error) bool { return err == nil }},
	} {
		line := c.call(tt.line)
		o := nextEnd(t, ends)
		want := RequestInfo{Method: tt.method, ID: json.RawMessage(tt.id), Name: tt.what, Modern: true, ProtocolVersion: ModernVersion, Transport: TransportStdio}
		if !sameInfo(o.info, want) {
			t.Errorf("%s: started %+v, want %+v", tt.name, o.info, want)
		}
		out := o.out
		if out.Row != tt.row || out.Cancelled || !tt.err(out.Err) || out.Duration <= 0 {
			t.Errorf("%s: row %q, cancelled %v, err %v (%T), duration %v; want row %q", tt.name, out.Row, out.Cancelled, out.Err, out.Err, out.Duration, tt.row)
		}
		// What the outcome says was sent is what the client received.
		var sent mcptest.Reply
		if err := json.Unmarshal([]byte(line), &sent); err != nil {
			t.Fatalf("%s: reply %s: %v", tt.name, line, err)
		}
		switch {
		case tt.code != 0:
			if out.ProtocolError == nil || sent.Error == nil || out.ProtocolError.Code != tt.code || sent.Error.Code != tt.code ||
				out.ProtocolError.Message != sent.Error.Message || out.ToolResult != nil {
				t.Errorf("%s: outcome sent %v / %v; the client received %s", tt.name, out.ProtocolError, out.ToolResult, line)
			}
		case tt.method == "tools/call":
			res, _ := json.Marshal(out.ToolResult)
			if out.ToolResult == nil || out.ToolResult.IsError != tt.toolError || out.ProtocolError != nil ||
				!strings.Contains(string(sent.Result), string(res[:len(res)-1])) {
				t.Errorf("%s: outcome sent %s / %v; the client received %s", tt.name, res, out.ProtocolError, line)
			}
		default:
			if out.ToolResult != nil || out.ProtocolError != nil || sent.Result == nil {
				t.Errorf("%s: outcome sent %v / %v; the client received %s", tt.name, out.ToolResult, out.ProtocolError, line)
			}
		}
	}
	// A line that is not a request is answered and logged, not observed
	// (an observation ends before the reply is written, so none is late).
	logs.reset()
	if line := c.call(`{"jsonrpc":`); !strings.Contains(line, `"code":-32700`) {
		t.Errorf("unparseable line: reply %s, want a parse error", line)
	}
	noMoreEnds(t, ends)
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if lines := logs.lines(); len(lines) != 1 || !strings.Contains(lines[0], `"code":-32700`) {
		t.Errorf("log %q, want the parse error", lines)
	}
}

// sameInfo reports whether two RequestInfos are equal.
func sameInfo(a, b RequestInfo) bool {
	return string(a.ID) == string(b.ID) && a.Method == b.Method && a.Name == b.Name && a.Modern == b.Modern &&
		a.ProtocolVersion == b.ProtocolVersion && a.Transport == b.Transport && a.Traceparent == b.Traceparent && a.Tracestate == b.Tracestate
}

// ctxHandler is a slog.Handler that sends the context of each record it
// handles on its channel.
type ctxHandler chan<- context.Context

func (h ctxHandler) Enabled(context.Context, slog.Level) bool        { return true }
func (h ctxHandler) Handle(ctx context.Context, _ slog.Record) error { h <- ctx; return nil }
func (h ctxHandler) WithAttrs([]slog.Attr) slog.Handler              { return h }
func (h ctxHandler) WithGroup(string) slog.Handler                   { return h }

// The context the observer returns is the one the handler runs with, and
// the one the log lines are written with; the trace context in _meta is
// passed through.
func TestObserveReplacesTheContext(t *testing.T) {
	observe, ends := recorder()
	s, _ := newObservedToolServer(observe, nil)
	ctxs := make(chan context.Context, 10)
	s.log = slog.New(ctxHandler(ctxs))
	sess := s.NewSession()
	const tp, ts = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context","_meta":{"traceparent":"` + tp + `","tracestate":"` + ts + `",` + mcptest.Meta[len(`"_meta":{`):] + `}}`
	if got := string(sess.Handle(context.Background(), []byte(line))); !strings.Contains(got, `"text":"context: observed"`) {
		t.Errorf("reply %s, want the handler to see the observer's context", got)
	}
	o := nextEnd(t, ends)
	if o.info.Traceparent != tp || o.info.Tracestate != ts || o.info.Transport != TransportDirect {
		t.Errorf("started %+v, want the trace context %q, %q, over %q", o.info, tp, ts, TransportDirect)
	}
	sess.Handle(context.Background(), []byte(mcptest.ToolCall("2", "echo", `{"text":""}`)))
	nextEnd(t, ends)
	if ctx := <-ctxs; ctx.Value(observerKey{}) != "observed" {
		t.Error("the log line of the tool error was not written with the observer's context")
	}
}

// An observer may return no function to end a request, and no context.
func TestObserveMayReturnNothing(t *testing.T) {
	var started []string
	s, _ := newEchoServer(&Options{Observe: func(ctx context.Context, req RequestInfo) (context.Context, func(Outcome)) {
		started = append(started, req.Method)
		return nil, nil
	}})
	sess := s.NewSession()
	wantEchoOK(t, string(sess.Handle(context.Background(), []byte(echoOK))))
	if !strings.Contains(string(sess.Handle(context.Background(), []byte(mcptest.ToolCall("1", "nothing", "{}")))), `"error"`) {
		t.Error("an unknown tool was not refused")
	}
	if strings.Join(started, " ") != "tools/call tools/call" {
		t.Errorf("started %q, want two tools/call", started)
	}
}

// A request cancelled by notifications/cancelled ends cancelled, having
// run with the observer's context, and the log says so once.
func TestObserveSeesACancelledRequest(t *testing.T) {
	observe, ends := recorder()
	started := make(chan context.Context, 1)
	s, logs := newObservedToolServer(observe, started)
	AddTool(s, Tool{Name: "fall"}, func(ctx context.Context, _ struct{}) (string, error) {
		started <- ctx
		<-ctx.Done()
		panic("fell while waiting")
	})
	c := connect(t, s)
	c.send(mcptest.ToolCall(`"slow"`, "wait", "{}"))
	if ctx := <-started; ctx.Value(observerKey{}) != "observed" {
		t.Error("the handler did not run with the observer's context")
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}`)
	o := nextEnd(t, ends)
	if string(o.info.ID) != `"slow"` || o.info.Name != "wait" || !o.out.Cancelled || !errors.Is(o.out.Err, context.Canceled) ||
		o.out.ToolResult != nil || o.out.ProtocolError != nil || o.out.Row != "" {
		t.Errorf("ended %+v, want the cancelled call, with nothing sent", o)
	}
	wantEchoOK(t, c.call(echoOK)) // and no reply to the cancelled call
	nextEnd(t, ends)
	want := `{"level":"INFO","msg":"request cancelled","method":"tools/call","tool":"wait","id":"\"slow\""}`
	if lines := logs.lines(); len(lines) != 1 || !strings.HasSuffix(lines[0], want[1:]) {
		t.Errorf("log %q, want one entry ending %s", lines, want[1:])
	}

	// A handler that fails after its request was cancelled: the outcome
	// is the cancellation, whose Err is the handler's failure.
	c.send(mcptest.ToolCall(`"fall"`, "fall", "{}"))
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"fall"}}`)
	var panicErr *PanicError
	if o = nextEnd(t, ends); !o.out.Cancelled || !errors.As(o.out.Err, &panicErr) || panicErr.Value != "fell while waiting" ||
		o.out.ToolResult != nil || o.out.Row != "" {
		t.Errorf("ended %+v, want the cancelled call, with its panic as Err", o)
	}
	wantEchoOK(t, c.call(echoOK))
	nextEnd(t, ends)
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	noMoreEnds(t, ends)
}

// Over HTTP, the observer sees both eras, the trace context, a refusal
// made before the request is served, a request the client closed, and
// one cancelled by notifications/cancelled in a legacy session.
func TestObserveOverHTTP(t *testing.T) {
	observe, ends := recorder()
	started := make(chan context.Context, 1)
	s, _ := newObservedToolServer(observe, started)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()

	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context","_meta":{"traceparent":"` + tp + `",` + mcptest.Meta[len(`"_meta":{`):] + `}}`
	if r := httpSend(t, "POST", ts.URL, body, mcptest.Headers("tools/call", "context")); !strings.Contains(r.Body, "context: observed") {
		t.Errorf("modern call: %d %s", r.Status, r.Body)
	}
	o := nextEnd(t, ends)
	want := RequestInfo{Method: "tools/call", ID: json.RawMessage("1"), Name: "context", Modern: true, ProtocolVersion: ModernVersion,
		Transport: TransportHTTP, Traceparent: tp}
	if !sameInfo(o.info, want) || o.out.ToolResult == nil || o.out.ProtocolError != nil {
		t.Errorf("modern call: %+v, want %+v and a result", o, want)
	}

	// Refused before it is served: its Mcp-Name contradicts its body.
	r := httpSend(t, "POST", ts.URL, body, mcptest.Headers("tools/call", "echo"))
	o = nextEnd(t, ends)
	if r.Status != http.StatusBadRequest || o.info.Name != "context" || o.info.Traceparent != tp || !o.info.Modern ||
		o.out.Row != "header-mismatch" || o.out.ProtocolError == nil || o.out.ProtocolError.Code != CodeHeaderMismatch {
		t.Errorf("header mismatch: %d, %+v", r.Status, o)
	}

	hdr := map[string]string{"Mcp-Session-Id": httpInitSession(t, ts.URL)}
	if o = nextEnd(t, ends); o.info.Method != "initialize" || o.info.ProtocolVersion != "" || o.info.Modern {
		t.Errorf("initialize: %+v", o)
	}
	httpSend(t, "POST", ts.URL, httpLegacyCall, hdr)
	if o = nextEnd(t, ends); o.info.Name != "echo" || o.info.ProtocolVersion != "2025-06-18" || o.info.Modern || o.info.Transport != TransportHTTP {
		t.Errorf("legacy call: %+v", o)
	}

	ctx, cancel := context.WithCancel(context.Background())
	req := newHTTPRequest(t, ctx, "POST", ts.URL, mcptest.ToolCall("9", "wait", "{}"), mcptest.Headers("tools/call", "wait"))
	done := make(chan error)
	go func() {
		_, err := http.DefaultClient.Do(req)
		done <- err
	}()
	<-started
	cancel()
	<-done
	if o = nextEnd(t, ends); string(o.info.ID) != "9" || !o.out.Cancelled || !errors.Is(o.out.Err, context.Canceled) {
		t.Errorf("closed request: %+v, want it cancelled", o)
	}

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
	if o = nextEnd(t, ends); string(o.info.ID) != `"w"` || !o.out.Cancelled || !errors.Is(o.out.Err, context.Canceled) || o.out.ToolResult != nil {
		t.Errorf("notifications/cancelled in a session: %+v, want the call cancelled", o)
	}
	if err := <-done; err == nil || strings.HasPrefix(err.Error(), "a response") {
		t.Errorf("the cancelled request got %v, want no response", err)
	}
	noMoreEnds(t, ends)
}

// noMethodRows are the rows of errorTable that answer no request the
// server reads, so Options.Observe never sees them: a message that is not
// a request, a stream's framing, an HTTP request refused before its body
// is read.
var noMethodRows = []errKind{
	errParseError.errKind, errNotAnObject.errKind, errMemberType.errKind, errJSONRPCVersion.errKind, errBadID.errKind, errNoMethod.errKind, errEmptyMethod.errKind, errParamType.errKind,
	errLineTooLong.errKind, errBatchUnsupported.errKind, errEmptyBatch.errKind,
	errHTTPMethod.errKind, errOrigin.errKind, errHost.errKind, errAccept.errKind, errContentType.errKind, errBodyTooLarge.errKind, errBodyUnreadable.errKind, errHTTPBatch.errKind,
}

// partRows are the rows whose text is part of another row's answer, which
// the observer reports: errArgumentGoType.errKind's text is one problem of an
// invalid-arguments tool error.
var partRows = []errKind{errArgumentGoType.errKind}

// logRows are the rows that answer nothing, only log a line: the observer
// sees a cancelled request as Cancelled, and the reply written after the
// client closed its side as what it is (TestHTTPClosedByEra checks both).
var logRows = []errKind{errRequestCancelled.errKind, errClientClosed.errKind}

// TestObserveSeesEveryRowWithAMethod sends a request answered by each row
// of errorTable but those of noMethodRows and partRows, and checks that the observer
// sees it end with that row and the error the client received.
func TestObserveSeesEveryRowWithAMethod(t *testing.T) {
	observe, ends := recorder()
	s, _ := newObservedToolServer(observe, nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{MaxSessions: 1}))
	defer ts.Close()
	legacy := func(id, method string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"}` }
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	initialized := s.NewSession()
	initialized.Handle(context.Background(), []byte(initialize))
	nextEnd(t, ends)

	seen := map[errKind]bool{}
	check := func(k errKind, how string, line []byte) {
		t.Helper()
		o := nextEnd(t, ends)
		var sent mcptest.Reply
		json.Unmarshal(line, &sent)
		if o.out.Row != errorTable[k].name || o.info.Method == "" {
			t.Errorf("%s: ended with row %q for method %q, want %q", how, o.out.Row, o.info.Method, errorTable[k].name)
		}
		e := o.out.ProtocolError
		if errorTable[k].code == toolResult {
			if o.out.ToolResult == nil || !o.out.ToolResult.IsError || sent.Result == nil {
				t.Errorf("%s: outcome %+v, want the tool error sent in %s", how, o.out, line)
			}
		} else if e == nil || sent.Error == nil || e.Code != sent.Error.Code || e.Message != sent.Error.Message {
			t.Errorf("%s: outcome %+v, want the error sent in %s", how, o.out, line)
		}
		seen[k] = true
	}
	direct := []struct {
		k    errKind
		sess *Session
		line string
	}{
		{errHandlerError.errKind, nil, mcptest.ToolCall("1", "refuse", "{}")},
		{errToolError.errKind, nil, mcptest.ToolCall("1", "echo", `{"text":""}`)},
		{errToolPanic.errKind, nil, mcptest.ToolCall("1", "first", "{}")},
		{errInvalidArguments.errKind, nil, mcptest.ToolCall("1", "echo", `{"text":1}`)},
		{errResourceNotFound.errKind, nil, mcptest.ReadCall("1", "shelf://missing")},
		{errResourceFailed.errKind, nil, mcptest.ReadCall("1", "shelf://locked")},
		{errNoVersion.errKind, nil, legacy("1", "tools/list")},
		{errUnsupportedVersion.errKind, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}`},
		{errNoCapabilities.errKind, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		{errAlreadyInitialized.errKind, initialized, initialize},
		{errMethodNotFound.errKind, nil, mcptest.Request("1", "prompts/list", "")},
		{errNoToolName.errKind, nil, mcptest.Request("1", "tools/call", "")},
		{errUnknownTool.errKind, nil, mcptest.ToolCall("1", "nothing", "{}")},
		{errArgumentsNotObject.errKind, nil, mcptest.ToolCall("1", "echo", "[1]")},
		{errNoURI.errKind, nil, mcptest.Request("1", "resources/read", "")},
		{errUnknownResource.errKind, nil, mcptest.ReadCall("1", "other://x")},
		{errResultUnencodable.errKind, nil, mcptest.ToolCall("1", "unencodable", "{}")},
		{errToolInternal.errKind, nil, mcptest.ToolCall("1", "internal", "{}")},
		{errOutputInvalid.errKind, nil, mcptest.ToolCall("1", "price", `{"title":"Dune"}`)},
		{errErrorContentInvalid.errKind, nil, mcptest.ToolCall("1", "price", `{"title":"Nothing"}`)},
		{errResourceError.errKind, nil, mcptest.ReadCall("1", "shelf://dusted")},
	}
	for _, tt := range direct {
		sess := tt.sess
		if sess == nil {
			sess = s.NewSession()
		}
		check(tt.k, tt.k.row().name, sess.Handle(context.Background(), []byte(tt.line)))
	}

	sid := httpInitSession(t, ts.URL)
	nextEnd(t, ends)
	overHTTP := []struct {
		k    errKind
		body string
		hdr  map[string]string
	}{
		{errUnsupportedVersion.errKind, httpLegacyCall, map[string]string{"Mcp-Protocol-Version": "1999-01-01", "Mcp-Session-Id": sid}},
		{errNoSession.errKind, httpLegacyCall, nil},
		{errUnknownSession.errKind, httpLegacyCall, map[string]string{"Mcp-Session-Id": "gone"}},
		{errTooManySessions.errKind, httpInit, nil},
		{errHeaderMissing.errKind, httpCall, map[string]string{"Mcp-Protocol-Version": ModernVersion}},
		{errHeaderBase64.errKind, httpCall, map[string]string{"Mcp-Protocol-Version": ModernVersion, "Mcp-Method": "tools/call", "Mcp-Name": "=?base64?!!?="}},
		{errHeaderMismatch.errKind, httpCall, mcptest.Headers("tools/call", "wait")},
	}
	for _, tt := range overHTTP {
		r := httpSend(t, "POST", ts.URL, tt.body, tt.hdr)
		check(tt.k, "HTTP "+tt.k.row().name, []byte(r.Body))
	}
	noMoreEnds(t, ends)

	for _, k := range noMethodRows {
		seen[k] = true
	}
	for _, k := range slices.Concat(partRows, logRows) {
		seen[k] = true
	}
	for k := range errorTable {
		if !seen[errKind(k)] {
			t.Errorf("row %s: no request shows the observer sees it, and it is in none of noMethodRows, partRows and logRows", errorTable[k].name)
		}
	}
}

// BenchmarkObserve times chapter 01's modern tools/call, as
// BenchmarkToolsCall does, with an observer that replaces the context and
// returns a function to end each request: what observing costs. With
// Options.Observe nil, BenchmarkToolsCall is unchanged.
func BenchmarkObserve(b *testing.B) {
	s := newBenchToolServer()
	var ends int
	s.opts.Observe = func(ctx context.Context, req RequestInfo) (context.Context, func(Outcome)) {
		return context.WithValue(ctx, observerKey{}, req.Method), func(out Outcome) { ends++ }
	}
	benchLine(b, s, true, benchCall(`{"title":"Dune"}`, true), wantDune)
	if ends == 0 {
		b.Fatal("the observer saw no request end")
	}
}
