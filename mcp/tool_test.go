package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

func TestToolPanic(t *testing.T) {
	s, logs := newEchoServer(nil)
	AddTool(s, Tool{Name: "boom"}, func(ctx context.Context, _ struct{}) (string, error) {
		panic("the shelf collapsed")
	})
	c := connect(t, s)
	r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "boom", "{}")))
	var res CallToolResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != "Error executing tool boom" {
		t.Errorf("panicking tool: %s, want the bare tool error", r.Result)
	}
	lines := logs.lines()
	if len(lines) != 1 || !strings.Contains(lines[0], "the shelf collapsed") || !strings.Contains(lines[0], "goroutine") {
		t.Errorf("log %q, want one line with the panic and its stack", lines)
	}
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestToolProtocolErrorWrapped(t *testing.T) {
	s, logs := newTestServer(nil)
	want := &Error{Code: CodeInvalidParams, Message: "No such shelf", Data: map[string]any{"shelf": "B"}}
	AddTool(s, Tool{Name: "shelf"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", fmt.Errorf("looking up the shelf: %w", want)
	})
	c := connect(t, s)
	line := c.call(mcptest.ToolCall("1", "shelf", "{}"))
	if wantLine := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"No such shelf","data":{"shelf":"B"}}}`; line != wantLine {
		t.Errorf("wrapped *Error:\n got %s\nwant %s", line, wantLine)
	}
	if n := len(logs.lines()); n != 1 {
		t.Errorf("%d log lines, want 1", n)
	}
	c.close()
}

func TestToolErrorResult(t *testing.T) {
	s, _ := newEchoServer(nil)
	c := connect(t, s)
	line := c.call(mcptest.ToolCall("1", "echo", `{"text":""}`))
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool echo: nothing to echo"}],"isError":true,`
	if !strings.HasPrefix(line, want) || strings.Contains(line, "structuredContent") {
		t.Errorf("tool error:\n got %s\nwant %s...", line, want)
	}
	c.close()
}

type shelfArgs struct {
	Shelf string `json:"shelf,omitempty"`
}

type shelfInfo struct {
	Shelf string   `json:"shelf"`
	Books []string `json:"books"`
}

func TestToolStructuredResult(t *testing.T) {
	s, _ := newTestServer(nil)
	AddTool(s, Tool{Name: "shelf"}, func(ctx context.Context, a shelfArgs) (shelfInfo, error) {
		if a.Shelf == "" {
			a.Shelf = "A"
		}
		return shelfInfo{Shelf: a.Shelf, Books: []string{"Dune"}}, nil
	})
	c := connect(t, s)
	// A missing "arguments" counts as {}.
	line := c.call(mcptest.Request("1", "tools/call", `"name":"shelf"`))
	r := mcptest.DecodeReply(t, line)
	var res struct {
		Content           []Content
		StructuredContent json.RawMessage
		IsError           bool
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	const want = `{"shelf":"A","books":["Dune"]}`
	if string(res.StructuredContent) != want || len(res.Content) != 1 || res.Content[0].Text != want || res.IsError {
		t.Errorf("structured result: %s, want structuredContent and text %s", r.Result, want)
	}
	list := mcptest.DecodeReply(t, c.call(mcptest.Request("2", "tools/list", "")))
	var tools struct{ Tools []ToolInfo }
	if err := json.Unmarshal(list.Result, &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || !strings.HasPrefix(string(tools.Tools[0].OutputSchema), `{"type":"object","properties":{"shelf":{"type":"string"},"books":`) ||
		!strings.Contains(string(tools.Tools[0].OutputSchema), `"required":["shelf","books"]`) {
		t.Errorf("tools/list: %s, want an output schema describing shelfInfo", list.Result)
	}
	c.close()
}

func TestToolResultAsIs(t *testing.T) {
	s, _ := newTestServer(nil)
	AddTool(s, Tool{Name: "raw"}, func(ctx context.Context, _ struct{}) (*CallToolResult, error) {
		return &CallToolResult{Content: []Content{TextContent("one"), TextContent("two")}, IsError: true}, nil
	})
	c := connect(t, s)
	line := c.call(mcptest.ToolCall("1", "raw", "{}"))
	if want := `"result":{"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}],"isError":true,`; !strings.Contains(line, want) {
		t.Errorf("a *CallToolResult: %s, want it as it is", line)
	}
	c.close()
}

func TestAddToolPanics(t *testing.T) {
	s, _ := newEchoServer(nil)
	noop := func(context.Context, struct{}) (string, error) { return "", nil }
	for _, tt := range []struct {
		name string
		add  func()
		want string // the panic message, or its start
	}{
		{"invalid name", func() { AddTool(s, Tool{Name: "no spaces"}, noop) }, `mcp: invalid tool name "no spaces"`},
		{"taken name", func() { AddTool(s, Tool{Name: "echo"}, noop) }, `mcp: tool "echo" registered twice`},
		{"arguments not an object", func() {
			AddTool(s, Tool{Name: "n"}, func(context.Context, int) (string, error) { return "", nil })
		}, `mcp: tool "n": arguments must be a struct or map type: got int`},
		{"arguments a pointer", func() {
			AddTool(s, Tool{Name: "p"}, func(context.Context, *struct{ A int }) (string, error) { return "", nil })
		}, `mcp: tool "p": arguments must be a struct or map type: got *struct { A int }`},
		{"arguments without a schema", func() {
			AddTool(s, Tool{Name: "c"}, func(context.Context, struct{ C chan int }) (string, error) { return "", nil })
		}, `mcp: tool "c": cannot infer input schema: For[struct { C chan int }](): `},
	} {
		func() {
			defer func() {
				got, _ := recover().(string)
				if !strings.HasPrefix(got, tt.want) || strings.HasSuffix(got, "<nil>") {
					t.Errorf("%s: AddTool panicked with %q, want %q", tt.name, got, tt.want)
				}
			}()
			tt.add()
		}()
	}
}

func TestToolArgumentDoesNotFitGoType(t *testing.T) {
	s, _ := newTestServer(nil)
	AddTool(s, Tool{Name: "count"}, func(ctx context.Context, a struct {
		N int64 `json:"n"`
	}) (string, error) {
		return fmt.Sprint(a.N), nil
	})
	c := connect(t, s)
	r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "count", `{"n":1e30}`)))
	var res CallToolResult
	want := errArgumentGoType.text("count", "n", "number 1e30")
	if err := json.Unmarshal(r.Result, &res); err != nil || !res.IsError || len(res.Content) != 1 ||
		res.Content[0].Text != want || want != "Error executing tool count: /n: cannot hold the number 1e30 given" {
		t.Errorf("an int64 given 1e30: %s, want a tool error %q", r.Result, want)
	}
	c.close()
}

func TestToolResultUnencodable(t *testing.T) {
	s, logs := newTestServer(nil)
	AddTool(s, Tool{Name: "nan"}, func(ctx context.Context, _ struct{}) (*CallToolResult, error) {
		return &CallToolResult{Content: []Content{}, StructuredContent: map[string]float64{"x": math.NaN()}}, nil
	})
	c := connect(t, s)
	line := c.call(mcptest.ToolCall("1", "nan", "{}"))
	if want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":"the result could not be encoded"}}`; line != want {
		t.Errorf("an unencodable result: %s, want %s", line, want)
	}
	// The cause is withheld from the client and logged, once, as an error.
	lines := logs.lines()
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want 1: %q", len(lines), lines)
	}
	var entry struct {
		Level, Msg, Method, Cause string
		Code                      int
	}
	if err := json.Unmarshal([]byte(lines[0]), &entry); err != nil {
		t.Fatalf("log line %s: %v", lines[0], err)
	}
	if entry.Level != "ERROR" || entry.Msg != "protocol error" || entry.Method != "tools/call" ||
		entry.Code != CodeInternalError || !strings.Contains(entry.Cause, "NaN") {
		t.Errorf("log line %s, want an ERROR protocol error for tools/call whose cause names the NaN", lines[0])
	}
	c.close()
}
