package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// logEntry is one line of a test server's JSON log.
type logEntry struct {
	Level, Msg, Tool, Error, Dropped, URI string
	Code                                  int
}

// logEntries decodes a test server's log lines.
func logEntries(t *testing.T, lines []string) []logEntry {
	t.Helper()
	entries := make([]logEntry, len(lines))
	for i, line := range lines {
		if err := json.Unmarshal([]byte(line), &entries[i]); err != nil {
			t.Fatalf("log line %s: %v", line, err)
		}
	}
	return entries
}

// TestToolFailsThreeWays: an ordinary error is read by the model; an
// error marked Internal, a result that cannot be encoded and a structured
// result that does not fit its output schema are the bare tool error,
// with the cause in the log at ERROR; a ToolError's structured content is
// sent when it fits the output schema, and dropped, with its text kept
// and the reason logged at ERROR, when it does not.
func TestToolFailsThreeWays(t *testing.T) {
	s, logs := newTestServer(nil)
	driver := errors.New(`pq: relation "stock" does not exist`)
	AddTool(s, Tool{Name: "leak"}, func(ctx context.Context, _ struct{}) (string, error) { return "", driver })
	AddTool(s, Tool{Name: "internal"}, func(ctx context.Context, _ struct{}) (string, error) { return "", Internal(driver) })
	AddTool(s, Tool{Name: "nan"}, func(ctx context.Context, _ struct{}) (map[string]float64, error) {
		return map[string]float64{"x": math.NaN()}, nil
	})
	AddTool(s, Tool{Name: "price"}, func(ctx context.Context, a priceArgs) (price, error) {
		switch a.Title {
		case "Nothing":
			return price{}, &ToolError{Text: "No such book.", Structured: price{Title: "Nothing", Price: 0}}
		case "Odd":
			return price{}, &ToolError{Text: "No such book.", Structured: map[string]string{"error": "not found"}}
		case "NaN":
			return price{}, &ToolError{Text: "No such book.", Structured: map[string]float64{"price": math.NaN()}}
		}
		return price{Title: a.Title, Price: -2}, nil
	})
	c := connect(t, s)
	defer c.close()
	for _, tt := range []struct {
		tool, args string
		text       string // what the model reads
		structured string // the structuredContent sent, "" for none
		level, log string // the log line's level, and what it holds
	}{
		{"leak", `{}`, `Error executing tool leak: pq: relation "stock" does not exist`, "", "INFO", `pq: relation "stock" does not exist`},
		{"internal", `{}`, "Error executing tool internal", "", "ERROR", `pq: relation "stock" does not exist`},
		{"nan", `{}`, "Error executing tool nan", "", "ERROR", "encoding the result: json: unsupported value: NaN"},
		{"price", `{"title":"Dune"}`, "Error executing tool price", "", "ERROR", "the result does not fit the output schema: /price: must be at least 0, got -2"},
		{"price", `{"title":"Nothing"}`, "Error executing tool price: No such book.", `{"title":"Nothing","price":0}`, "INFO", "No such book."},
		{"price", `{"title":"Odd"}`, "Error executing tool price: No such book.", "", "ERROR",
			"the structured content does not fit the output schema: /title: required, but missing; /price: required, but missing; /error: unknown property (expected title, price)"},
		{"price", `{"title":"NaN"}`, "Error executing tool price: No such book.", "", "ERROR", "the structured content cannot be encoded: json: unsupported value: NaN"},
	} {
		r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", tt.tool, tt.args)))
		var res struct {
			Content           []Content
			StructuredContent json.RawMessage
			IsError           bool
		}
		if err := json.Unmarshal(r.Result, &res); err != nil || !res.IsError || len(res.Content) != 1 ||
			res.Content[0].Text != tt.text || string(res.StructuredContent) != tt.structured {
			t.Errorf("%s %s: %s, want the tool error %q with structured content %q", tt.tool, tt.args, r.Result, tt.text, tt.structured)
		}
		entries := logEntries(t, logs.lines())
		if len(entries) != 1 {
			t.Fatalf("%s %s: %d log lines, want 1", tt.tool, tt.args, len(entries))
		}
		e := entries[0]
		if e.Level != tt.level || e.Tool != tt.tool || !strings.Contains(e.Error+" "+e.Dropped, tt.log) {
			t.Errorf("%s %s: log %+v, want %s holding %q", tt.tool, tt.args, e, tt.level, tt.log)
		}
		logs.reset()
	}
}

// TestResourceFailsThreeWays: not found and a ResourceFailureError are
// sent with the handler's message and the URI; any other error is "Internal error"
// with the URI, its text only in the log, at ERROR.
func TestResourceFailsThreeWays(t *testing.T) {
	s, logs := newTestServer(nil)
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "shelf://{n}", Name: "shelf"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		switch req.Params["n"] {
		case "missing":
			return "", ResourceNotFound("No shelf %s.", req.Params["n"])
		case "dusted":
			return "", ResourceFailure("Shelf %s is being dusted; try again in a minute.", req.Params["n"])
		}
		return "", errors.New("dial tcp 10.0.0.7:5432: connection refused")
	})
	c := connect(t, s)
	defer c.close()
	for _, tt := range []struct {
		uri, want, level string
	}{
		{"shelf://missing", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"No shelf missing.","data":{"uri":"shelf://missing"}}}`, "WARN"},
		{"shelf://dusted", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Shelf dusted is being dusted; try again in a minute.","data":{"uri":"shelf://dusted"}}}`, "INFO"},
		{"shelf://cellar", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":{"uri":"shelf://cellar"}}}`, "ERROR"},
	} {
		if line := c.call(mcptest.ReadCall("1", tt.uri)); line != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.uri, line, tt.want)
		}
		lines := logs.lines()
		if len(lines) != 1 || logEntries(t, lines)[0].Level != tt.level {
			t.Errorf("%s: log %q, want one line at %s", tt.uri, lines, tt.level)
		}
		if tt.level == "ERROR" && !strings.Contains(lines[0], "connection refused") {
			t.Errorf("%s: log %q does not hold the cause", tt.uri, lines)
		}
		logs.reset()
	}
}

// TestArgumentsCapped: a thousand wrong elements make ten problems and a
// count of the rest, in at most 1 KiB.
func TestArgumentsCapped(t *testing.T) {
	s, _ := newTestServer(nil)
	AddTool(s, Tool{Name: "titles"}, func(ctx context.Context, a struct {
		Titles []string `json:"titles"`
	}) (string, error) {
		return "", nil
	})
	c := connect(t, s)
	defer c.close()
	args := `{"titles":[` + strings.TrimSuffix(strings.Repeat("1,", 1000), ",") + `]}`
	r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "titles", args)))
	var res CallToolResult
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("%s: %v", r.Result, err)
	}
	text := strings.TrimPrefix(res.Content[0].Text, "Error executing tool titles: ")
	if len(text) > 1<<10 || strings.Count(text, "expected a string") != 10 || !strings.HasSuffix(text, "; and 990 more") {
		t.Errorf("a thousand wrong titles: %d bytes %q, want 10 problems then \"; and 990 more\", in at most 1 KiB", len(text), text)
	}
}

// TestBoundsFromTags: mcp tags bound a field in the input schema, and the
// checker holds a call to them before the handler runs.
func TestBoundsFromTags(t *testing.T) {
	s, _ := newTestServer(nil)
	called := false
	AddTool(s, Tool{Name: "list"}, func(ctx context.Context, a struct {
		Limit int    `json:"limit" mcp:"minimum=1,maximum=50"`
		Name  string `json:"name,omitempty" mcp:"maxLength=3"`
	}) (string, error) {
		called = true
		return "", nil
	})
	c := connect(t, s)
	defer c.close()
	r := mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "list", `{"limit":51,"name":"Dune"}`)))
	want := "Error executing tool list: /limit: must be at most 50, got 51; /name: must be at most 3 characters long, got 4"
	if !strings.Contains(string(r.Result), want) || called {
		t.Errorf("limit 51, name Dune: %s (handler called: %v), want %q", r.Result, called, want)
	}
	list := c.call(mcptest.Request("2", "tools/list", ""))
	if !strings.Contains(list, `"limit":{"type":"integer","minimum":1,"maximum":50}`) {
		t.Errorf("tools/list: %s, want limit's bounds in the input schema", list)
	}
}

// TestBoundsTagMistakes: a tag AddTool cannot read is a panic that says
// which tool, which field and what is wrong.
func TestBoundsTagMistakes(t *testing.T) {
	for tag, want := range map[string]string{
		"maximum=fifty": `mcp: tool "t": cannot infer input schema: field N: mcp tag "maximum=fifty": maximum: "fifty" is not a number`,
		"most=50":       `mcp: tool "t": cannot infer input schema: field N: mcp tag "most=50": unknown keyword "most": use minimum, maximum, minLength, maxLength, minItems or maxItems`,
		"maximum":       `mcp: tool "t": cannot infer input schema: field N: mcp tag "maximum": "maximum" is not keyword=value`,
	} {
		got := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			s := NewServer("t", "1", nil)
			switch tag {
			case "maximum=fifty":
				AddTool(s, Tool{Name: "t"}, func(context.Context, struct {
					N int `json:"n" mcp:"maximum=fifty"`
				}) (string, error) {
					return "", nil
				})
			case "most=50":
				AddTool(s, Tool{Name: "t"}, func(context.Context, struct {
					N int `json:"n" mcp:"most=50"`
				}) (string, error) {
					return "", nil
				})
			default:
				AddTool(s, Tool{Name: "t"}, func(context.Context, struct {
					N int `json:"n" mcp:"maximum"`
				}) (string, error) {
					return "", nil
				})
			}
			return ""
		}()
		if got != want {
			t.Errorf("tag %q: panic %q, want %q", tag, got, want)
		}
	}
}

func TestToolPanicLogCarriesTheRequestID(t *testing.T) {
	s, logs := newObservedToolServer(nil, nil)
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
