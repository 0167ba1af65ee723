package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// clientTestMaxLine is the line limit of the client tests' server, small so
// that a test can exceed it.
const clientTestMaxLine = 1 << 12

// clientLongWait bounds what a test waits for something that should happen at
// once, so that a bug fails the test instead of hanging it.
const clientLongWait = 10 * time.Second

// newClientTestServer returns a server with one tool per outcome, a
// resource and a template. The tool "wait" blocks until its call is
// cancelled; "cancelled" then says whether that happened.
func newClientTestServer() *mcp.Server {
	s := mcp.NewServer("test", "1.0.0", &mcp.Options{Logger: slog.New(slog.DiscardHandler), MaxLineBytes: clientTestMaxLine})
	type text struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, args text) (string, error) {
		return args.Text, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "fail"}, func(ctx context.Context, args text) (string, error) {
		return "", errors.New(args.Text)
	})
	mcp.AddTool(s, mcp.Tool{Name: "refuse"}, func(ctx context.Context, args text) (string, error) {
		return "", &mcp.Error{Code: mcp.CodeInvalidParams, Message: args.Text, Data: map[string]any{"why": "testing"}}
	})
	cancelled := make(chan struct{}, 1)
	mcp.AddTool(s, mcp.Tool{Name: "wait"}, func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		cancelled <- struct{}{}
		return "", ctx.Err()
	})
	mcp.AddTool(s, mcp.Tool{Name: "cancelled"}, func(ctx context.Context, _ struct{}) (string, error) {
		select {
		case <-cancelled:
			return "yes", nil
		case <-time.After(clientLongWait):
			return "no", nil
		}
	})
	s.AddResource(mcp.Resource{URI: "info://version", Name: "version"}, func(ctx context.Context, req *mcp.ResourceRequest) (string, error) {
		return "1", nil
	})
	s.AddResourceTemplate(mcp.ResourceTemplate{URITemplate: "books://{title}", Name: "book"}, func(ctx context.Context, req *mcp.ResourceRequest) (string, error) {
		if req.Params["title"] != "Dune" {
			return "", mcp.ResourceNotFound("No book titled '%s'.", req.Params["title"])
		}
		return "Dune by Frank Herbert", nil
	})
	return s
}

// clientTransports are the ways to reach the test server: in process, and as a
// child process over stdio.
var clientTransports = map[string]func(t *testing.T) Transport{
	"in-process": func(t *testing.T) Transport { return InProcess(newClientTestServer()) },
	"command":    func(t *testing.T) Transport { return Command(helperCommand("serve")) },
}

// sendRecorder is a Transport that records what the client sends.
type sendRecorder struct {
	Transport
	mu   sync.Mutex
	sent []*Outgoing
}

func (r *sendRecorder) record(m *Outgoing) {
	r.mu.Lock()
	r.sent = append(r.sent, m)
	r.mu.Unlock()
}

func (r *sendRecorder) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	r.record(m)
	return r.Transport.Call(ctx, m)
}

func (r *sendRecorder) Notify(ctx context.Context, m *Outgoing) error {
	r.record(m)
	return r.Transport.Notify(ctx, m)
}

// dial connects to a test server and closes the client when the test ends.
func dial(t *testing.T, tr Transport, era Era) *Conn {
	t.Helper()
	c, err := Connect(context.Background(), tr, &Options{Era: era})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// TestClientOutcomes checks every method and every outcome, in each era
// over each transport, and what the client sends in each era.
func TestClientOutcomes(t *testing.T) {
	for name, newTransport := range clientTransports {
		for _, era := range []Era{EraAuto, EraModern, EraLegacy} {
			t.Run(name+"/"+era.String(), func(t *testing.T) {
				rec := &sendRecorder{Transport: newTransport(t)}
				c := dial(t, rec, era)
				testOutcomes(t, c)
				checkSent(t, rec.sent, era, c.ProtocolVersion())
			})
		}
	}
}

func testOutcomes(t *testing.T, c *Conn) {
	ctx := context.Background()
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"echo", "fail", "refuse", "wait", "cancelled"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ListTools: got %v, want %v", names, want)
	}
	if !strings.Contains(string(tools[0].InputSchema), `"text"`) {
		t.Errorf("echo's input schema lacks its argument: %s", tools[0].InputSchema)
	}
	resources, err := c.ListResources(ctx)
	if err != nil || len(resources) != 1 || resources[0].URI != "info://version" {
		t.Errorf("ListResources: got %v, %v", resources, err)
	}
	templates, err := c.ListResourceTemplates(ctx)
	if err != nil || len(templates) != 1 || templates[0].URITemplate != "books://{title}" {
		t.Errorf("ListResourceTemplates: got %v, %v", templates, err)
	}

	res, err := c.CallTool(ctx, "echo", map[string]string{"text": "hello"})
	if err != nil || res.IsError || res.Content[0].Text != "hello" {
		t.Errorf("echo: got %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "fail", map[string]string{"text": "it failed"})
	if err != nil || !res.IsError || res.Content[0].Text != "Error executing tool fail: it failed" || res.StructuredContent != nil {
		t.Errorf("fail: got %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "echo", map[string]int{"text": 42})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "/text") {
		t.Errorf("echo with a number: got %+v, %v", res, err)
	}
	_, err = c.CallTool(ctx, "refuse", map[string]string{"text": "no"})
	want := &mcp.Error{Code: mcp.CodeInvalidParams, Message: "no", Data: map[string]any{"why": "testing"}}
	if perr := (*mcp.Error)(nil); !errors.As(err, &perr) || !reflect.DeepEqual(perr, want) {
		t.Errorf("refuse: got error %#v, want %#v", err, want)
	}

	contents, err := c.ReadResource(ctx, "books://Dune")
	if err != nil || len(contents) != 1 || contents[0].Text != "Dune by Frank Herbert" {
		t.Errorf("ReadResource: got %v, %v", contents, err)
	}
	for _, uri := range []string{"books://Nothing", "nowhere://at-all"} {
		_, err = c.ReadResource(ctx, uri)
		var perr *mcp.Error
		if !IsResourceNotFound(err) || !errors.As(err, &perr) || perr.Data.(map[string]any)["uri"] != uri {
			t.Errorf("ReadResource(%q): got %v, want not found with the URI in data", uri, err)
		}
	}
}

// checkSent checks the era of each message the client sent.
func checkSent(t *testing.T, sent []*Outgoing, era Era, version string) {
	methods := make([]string, len(sent))
	for i, m := range sent {
		methods[i] = m.Method
	}
	first := map[Era][]string{
		EraAuto:   {"server/discover", "tools/list"},
		EraModern: {"tools/list"},
		EraLegacy: {"initialize", "notifications/initialized", "tools/list"},
	}[era]
	if !reflect.DeepEqual(methods[:len(first)], first) {
		t.Errorf("the client began with %v, want %v", methods, first)
	}
	modern := era != EraLegacy
	if (version == mcp.ModernVersion) != modern {
		t.Errorf("ProtocolVersion() = %q in era %v", version, era)
	}
	for _, m := range sent {
		hasMeta := strings.Contains(string(m.Line), mcptest.Meta)
		if hasMeta != modern {
			t.Errorf("era %v: %s", era, m.Line)
		}
		if m.Method == "tools/call" && !strings.Contains(string(m.Line), `"name":"`+m.Name+`"`) {
			t.Errorf("Outgoing.Name is %q for %s", m.Name, m.Line)
		}
		if m.Version != version && m.Method != "initialize" {
			t.Errorf("Outgoing.Version is %q, want %q, for %s", m.Version, version, m.Line)
		}
	}
}

// scriptedServer is a Transport standing for another server: it answers
// server/discover with discover, and initialize as a legacy server does.
type scriptedServer struct {
	discover func(ctx context.Context, id int64) ([]byte, error)
	methods  []string
}

func (s *scriptedServer) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	s.methods = append(s.methods, m.Method)
	switch m.Method {
	case "server/discover":
		return s.discover(ctx, m.ID)
	case "initialize":
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"old","version":"0"}}}`, m.ID), nil
	}
	return nil, fmt.Errorf("unexpected %s", m.Method)
}

func (s *scriptedServer) Notify(ctx context.Context, m *Outgoing) error {
	s.methods = append(s.methods, m.Method)
	return nil
}

func (s *scriptedServer) Close() error { return nil }

// rpcError returns a discover answer that is the error object given.
func rpcError(obj string) func(ctx context.Context, id int64) ([]byte, error) {
	return func(ctx context.Context, id int64) ([]byte, error) {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"error":%s}`, id, obj), nil
	}
}

// TestClientProbe checks the fallback rule: any error but a modern one, or
// silence, means a legacy server; a modern error or a broken connection
// does not.
func TestClientProbe(t *testing.T) {
	legacy := []string{"server/discover", "initialize", "notifications/initialized"}
	tests := []struct {
		name     string
		discover func(ctx context.Context, id int64) ([]byte, error)
		methods  []string
		err      string
	}{
		{"method not found", rpcError(`{"code":-32601,"message":"Method not found"}`), legacy, ""},
		{"invalid params", rpcError(`{"code":-32602,"message":"initialize first"}`), legacy, ""},
		{"server error", rpcError(`{"code":-32000,"message":"not initialized"}`), legacy, ""},
		{"internal error", rpcError(`{"code":-32603,"message":"boom"}`), legacy, ""},
		{"silence", func(ctx context.Context, id int64) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, legacy, ""},
		{"unsupported version", rpcError(`{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}`),
			[]string{"server/discover"}, "Unsupported protocol version (code -32022)"},
		{"missing capability", rpcError(`{"code":-32021,"message":"Missing capability"}`),
			[]string{"server/discover"}, "Missing capability (code -32021)"},
		{"connection closed", func(ctx context.Context, id int64) ([]byte, error) {
			return nil, ErrClosed
		}, []string{"server/discover"}, ErrClosed.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &scriptedServer{discover: tt.discover}
			c, err := Connect(context.Background(), s, &Options{ProbeTimeout: 50 * time.Millisecond})
			if !reflect.DeepEqual(s.methods, tt.methods) {
				t.Errorf("sent %v, want %v", s.methods, tt.methods)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Connect: %v", err)
			case tt.err == "" && c.ProtocolVersion() != "2025-06-18":
				t.Errorf("ProtocolVersion() = %q after falling back", c.ProtocolVersion())
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("Connect: got error %v, want %s", err, tt.err)
			}
		})
	}
}

// TestClientLegacyVersionRefused: a server that negotiates a version the client
// does not speak is refused.
func TestClientLegacyVersionRefused(t *testing.T) {
	s := &fixedAnswer{`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2023-01-01"}}`}
	_, err := Connect(context.Background(), s, &Options{Era: EraLegacy})
	if err == nil || !strings.Contains(err.Error(), `"2023-01-01"`) {
		t.Errorf("Connect: got %v, want the unknown version refused", err)
	}
}

// fixedAnswer answers every call with one line.
type fixedAnswer struct{ line string }

func (s *fixedAnswer) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	return []byte(s.line), nil
}
func (s *fixedAnswer) Notify(ctx context.Context, m *Outgoing) error { return nil }
func (s *fixedAnswer) Close() error                                  { return nil }

// TestClientCancel: a cancelled call returns at once with ctx's error, and the
// server's handler sees the cancellation.
func TestClientCancel(t *testing.T) {
	for name, newTransport := range clientTransports {
		t.Run(name, func(t *testing.T) {
			c := dial(t, newTransport(t), EraAuto)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, err := c.CallTool(ctx, "wait", nil)
			var perr *mcp.Error
			if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &perr) {
				t.Fatalf("wait: got %v, want the deadline, and no protocol error", err)
			}
			res, err := c.CallTool(context.Background(), "cancelled", nil)
			if err != nil || res.Content[0].Text != "yes" {
				t.Errorf("the handler did not see the cancellation: %+v, %v", res, err)
			}
		})
	}
}

// TestClientConcurrentCalls: calls made at once each get their own answer.
func TestClientConcurrentCalls(t *testing.T) {
	const calls = 50
	for name, newTransport := range clientTransports {
		t.Run(name, func(t *testing.T) {
			c := dial(t, newTransport(t), EraAuto)
			var wg sync.WaitGroup
			for i := range calls {
				wg.Go(func() {
					text := fmt.Sprint(i)
					res, err := c.CallTool(context.Background(), "echo", map[string]string{"text": text})
					if err != nil || res.Content[0].Text != text {
						t.Errorf("call %d: got %+v, %v", i, res, err)
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestClientClosed: a closed client fails every call with ErrClosed.
func TestClientClosed(t *testing.T) {
	for name, newTransport := range clientTransports {
		t.Run(name, func(t *testing.T) {
			c, err := Connect(context.Background(), newTransport(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if _, err := c.ListTools(context.Background()); !errors.Is(err, ErrClosed) {
				t.Errorf("ListTools after Close: got %v, want ErrClosed", err)
			}
		})
	}
}

// TestClientLineTooLong: the server's answer to a request it could not read has
// no id, and still reaches the call.
func TestClientLineTooLong(t *testing.T) {
	for name, newTransport := range clientTransports {
		if name == "in-process" {
			continue // no lines, so no line limit
		}
		t.Run(name, func(t *testing.T) {
			c := dial(t, newTransport(t), EraAuto)
			_, err := c.CallTool(context.Background(), "echo", map[string]string{"text": strings.Repeat("x", clientTestMaxLine)})
			var perr *mcp.Error
			if !errors.As(err, &perr) || perr.Code != mcp.CodeInvalidRequest {
				t.Errorf("got %v, want an invalid-request error", err)
			}
		})
	}
}

func TestIsResourceNotFound(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&mcp.Error{Code: mcp.CodeInvalidParams, Message: "gone", Data: map[string]any{"uri": "a://b"}}, true},
		{fmt.Errorf("reading: %w", &mcp.Error{Code: mcp.CodeInvalidParams, Data: map[string]any{"uri": "a://b"}}), true},
		{&mcp.Error{Code: CodeLegacyResourceNotFound, Message: "gone"}, true},
		{&mcp.Error{Code: mcp.CodeInvalidParams, Message: "bad"}, false},
		{&mcp.Error{Code: mcp.CodeInvalidParams, Data: map[string]any{"uri": 7}}, false},
		{&mcp.Error{Code: mcp.CodeInternalError, Data: map[string]any{"uri": "a://b"}}, false},
		{errors.New("gone"), false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := IsResourceNotFound(tt.err); got != tt.want {
			t.Errorf("IsResourceNotFound(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestEraText(t *testing.T) {
	for _, e := range []Era{EraAuto, EraModern, EraLegacy} {
		text, _ := e.MarshalText()
		var got Era
		if err := got.UnmarshalText(text); err != nil || got != e {
			t.Errorf("%v: round trip gave %v, %v", e, got, err)
		}
	}
	var e Era
	if err := e.UnmarshalText([]byte("future")); err == nil {
		t.Error(`UnmarshalText("future") succeeded`)
	}
}

// TestClientStartFailure: a command that cannot start fails Connect.
func TestClientStartFailure(t *testing.T) {
	_, err := Connect(context.Background(), Command(exec.Command("mcp-client-test-no-such-command")), nil)
	if err == nil || !strings.Contains(err.Error(), "starting the server") {
		t.Errorf("Connect: got %v, want a start failure", err)
	}
}
