// Package checktest holds a server built to be wrong, which the tests of
// package check and of mcpc check run as a command: one flaw per lesson of
// the check, each of which it must find within its bounds.
package checktest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// message is a JSON-RPC message as the servers built to be wrong read it.
type message struct {
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

// HangNotify names the environment variable that may give WrongServer a
// TCP address to connect to once it hangs, which tells a test that the
// check waits on it.
const HangNotify = "CHECKTEST_HANG_NOTIFY"

// WrongServer is a 2026-07-28 server over stdio built to be wrong: one flaw
// per lesson, each of which the check must find, within its bounds.
func WrongServer() {
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
		if strings.HasPrefix(strings.TrimSpace(string(line)), "[") { // a batch: a reply past the check's bound, never ended
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"%s`, strings.Repeat("x", 3<<19))
			out.Flush()
			time.Sleep(time.Hour)
		}
		var m message
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
		case strings.HasPrefix(m.Method, "mcpc-check/"): // a hang: nothing is answered any more
			if addr := os.Getenv(HangNotify); addr != "" {
				if c, err := net.Dial("tcp", addr); err == nil {
					c.Close()
				}
			}
			time.Sleep(time.Hour)
		default:
			reply(m.ID, "error", map[string]any{"code": -32601, "message": "Method not found"})
		}
	}
}
