package check

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain runs the test binary as the wrong server when asked to, so that
// the tests can start it as a command.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "wrong-server" {
		wrongServer()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// wrongServer is a 2026-07-28 server over stdio built to be wrong: one flaw
// per lesson, each of which the check must find, within its bounds.
func wrongServer() {
	out := bufio.NewWriter(os.Stdout)
	reply := func(id json.RawMessage, member string, v any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, member: v})
		out.Write(append(b, '\n'))
		out.Flush()
	}
	toolError := func(text string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": true, "resultType": "complete"}
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 8<<20)
	silent := false
	for sc.Scan() {
		line := sc.Bytes()
		if strings.HasPrefix(strings.TrimSpace(string(line)), "[") { // a batch: a reply past the check's bound
			reply(nil, "error", map[string]any{"code": -32600, "message": strings.Repeat("x", 2<<20)})
			continue
		}
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Params  struct {
				Name      string          `json:"name"`
				URI       string          `json:"uri"`
				Arguments json.RawMessage `json:"arguments"`
				Meta      map[string]any  `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil { // a line that is not JSON: a crash
			fmt.Fprintln(os.Stderr, "fatal: unexpected input")
			os.Exit(3)
		}
		if silent {
			continue
		}
		if v, _ := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); v == "1900-01-01" { // a flood
			chunk := []byte(strings.Repeat("y", 1<<20))
			for {
				if _, err := os.Stdout.Write(chunk); err != nil {
					os.Exit(1)
				}
			}
		}
		switch {
		case m.Method == "notifications/cancelled": // silence ever after
			silent = true
		case strings.HasPrefix(string(m.ID), "{"): // an id of the wrong type, echoed, after a line of chatter
			fmt.Fprintln(out, "debug: a strange id")
			reply(m.ID, "error", map[string]any{"code": -32600, "message": "Invalid Request"})
		case m.ID == nil:
		case m.Method == "server/discover":
			reply(m.ID, "result", map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}, "resources": map[string]any{}}, "resultType": "complete"})
		case m.Method == "tools/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "tools": []any{
				map[string]any{"name": "panicky", "inputSchema": json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
				map[string]any{"name": "lookup", "inputSchema": json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)},
				map[string]any{"name": "echo", "inputSchema": json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"at":{"enum":["server/main.go:12"]}},"required":["text","at"]}`)},
			}})
		case m.Method == "resources/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "resources": []any{}})
		case m.Method == "resources/templates/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "resourceTemplates": []any{map[string]any{"name": "book", "uriTemplate": "books://{title}"}}})
		case m.Method == "resources/read" && strings.HasPrefix(m.Params.URI, "books://"): // empty contents
			reply(m.ID, "result", map[string]any{"resultType": "complete", "contents": []any{}})
		case m.Method == "resources/read": // the retired code
			reply(m.ID, "error", map[string]any{"code": -32002, "message": "Resource not found", "data": map[string]any{"uri": m.Params.URI}})
		case m.JSONRPC != "2.0": // served anyway
			reply(m.ID, "result", map[string]any{"resultType": "complete", "tools": []any{}})
		case m.Method == "tools/call" && m.Params.Name == "panicky":
			reply(m.ID, "result", toolError("panic: runtime error: index out of range [0] with length 0\n\ngoroutine 7 [running]:\nmain.search(...)\n\t/srv/app/search.go:42 +0x1d"))
		case m.Method == "tools/call" && m.Params.Name == "lookup":
			reply(m.ID, "error", map[string]any{"code": -32603, "message": `pq: invalid input syntax for type integer: "mcpc-check"`, "data": "SELECT title FROM books WHERE id = $1"})
		case m.Method == "tools/call" && m.Params.Name == "echo":
			reply(m.ID, "result", toolError("text is required; you sent "+string(m.Params.Arguments)))
		case m.Method == "tools/call": // an unknown tool: a tool error
			reply(m.ID, "result", toolError("Unknown tool: "+m.Params.Name))
		case strings.HasPrefix(m.Method, "mcpc-check/"): // a hang: never answered
		default:
			reply(m.ID, "error", map[string]any{"code": -32601, "message": "Method not found"})
		}
	}
}

// verdictKey names a verdict in the table of those the wrong server
// deserves.
func verdictKey(v Verdict) string { return v.Lesson + " · " + v.Target }

// TestWrongServer checks that the server built to be wrong gets exactly the
// verdicts it deserves, each within the check's bounds.
func TestWrongServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r, err := Run(ctx, &Config{Command: []string{os.Args[0], "wrong-server"}, Wait: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Kind{
		"unknown-tool · mcpc-check-no-such-tool":                     Allowed, // a tool error
		"validation · tool panicky: q missing":                       AsGuide, // a tool error, though a panic's
		"internals · validation · tool panicky: q missing":           Leaks,   // ... that leaks a Go trace
		"internals · validation · tool panicky: q of the wrong type": Leaks,
		"internals · validation · tool lookup: id missing":           Leaks, // SQL and a driver error
		"internals · validation · tool lookup: id of the wrong type": Leaks,
		"validation · tool panicky: q of the wrong type":             AsGuide,       //
		"validation · tool lookup: id missing":                       AgainstShould, // -32603, not a tool error
		"validation · tool lookup: id of the wrong type":             AgainstShould,
		"validation · tool echo: text missing":                       AsGuide, // the echo of "server/main.go:12" is not a leak
		"validation · tool echo: text of the wrong type":             AsGuide,
		"validation · tool echo: at missing":                         AsGuide,
		"malformed-line · not JSON":                                  AgainstMust, // it crashed
		"unknown-method · mcpc-check/no-such-method":                 AgainstMust, // it hung
		`invalid-request · "jsonrpc": "1.0"`:                         Allowed,     // served anyway
		"invalid-request · an id that is an object":                  AgainstMust, // echoed the id
		"stdout · invalid-request · an id that is an object":         AgainstMust, // chatter on stdout
		"batch · two tools/list":                                     NotChecked,  // a reply past the bound
		"unsupported-version · 1900-01-01":                           AgainstMust, // a flood
		"resource-not-found · template books://{title}":              AgainstMust, // empty contents
		"resource-not-found · a URI that matches nothing":            AgainstMust, // -32002
		"cancellation · tools/list":                                  AgainstMust, // silent after it
	}
	got := map[string]Kind{}
	var leaks []string
	for _, e := range r.Eras {
		for _, v := range e.Verdicts {
			if v.Kind == Leaks {
				leaks = append(leaks, v.Detail)
			}
			if k, seen := got[verdictKey(v)]; seen && k != v.Kind {
				t.Errorf("%s: two verdicts, %v and %v", verdictKey(v), k, v.Kind)
			}
			got[verdictKey(v)] = max(got[verdictKey(v)], v.Kind)
		}
	}
	delete(got, "internals · ")
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %v, want %v", k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: an unexpected verdict, %v", k, g)
		}
	}
	if len(r.Eras) != 1 {
		t.Errorf("got %d eras, want 1 (the wrong server speaks 2026-07-28 only)", len(r.Eras))
	}
	if !r.Fails() {
		t.Error("the report does not fail")
	}
	if t.Failed() {
		r.WriteText(testWriter{t})
	}
}

// testWriter writes to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
