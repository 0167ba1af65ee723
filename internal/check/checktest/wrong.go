// Package checktest holds servers built for the tests of package check and
// of mcpc check, which run them as commands or mount them: a server built
// to be wrong, with one flaw per lesson of the check, each of which it must
// find within its bounds; and a server with no tools.
package checktest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// message is a JSON-RPC message as the servers built to be wrong read it.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Name            string          `json:"name"`
		URI             string          `json:"uri"`
		ProtocolVersion string          `json:"protocolVersion"`
		Arguments       json.RawMessage `json:"arguments"`
		Meta            map[string]any  `json:"_meta"`
	} `json:"params"`
}

// HangNotify names the environment variable that may give WrongServer a
// TCP address to connect to once it hangs, which tells a test that the
// check waits on it.
const HangNotify = "CHECKTEST_HANG_NOTIFY"

// act is what the wrong server does with a message beyond its reply.
type act int

const (
	reply    act = iota // write the reply, if any
	crash               // a line that is not JSON: die (stdio) or drop the connection (HTTP)
	flood               // write bytes without end
	hang                // answer nothing, ever (stdio) or to this request (HTTP)
	overlong            // write the reply's first 1.5 MiB and never end it (stdio), or the whole reply (HTTP)
	chatter             // write a line that is not a message, then the reply (stdio)
)

// wrong is the wrong server's reading of one message, the same over both
// transports and in both eras: 2026-07-28, each request carrying its
// version, and 2025-11-25, opened by initialize.
func wrong(line []byte) (out []byte, a act) {
	answer := func(id json.RawMessage, member string, v any) []byte {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, member: v})
		return b
	}
	toolError := func(text string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": true, "resultType": "complete"}
	}
	if strings.HasPrefix(strings.TrimSpace(string(line)), "[") { // a batch: a reply past the check's bound
		return answer(nil, "error", map[string]any{"code": -32600, "message": strings.Repeat("x", 2<<20)}), overlong
	}
	var m message
	if json.Unmarshal(line, &m) != nil {
		return nil, crash
	}
	if v, _ := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); v == "1900-01-01" {
		return nil, flood
	}
	caps := map[string]any{"tools": map[string]any{}, "resources": map[string]any{}}
	switch {
	case strings.HasPrefix(string(m.ID), "{"): // an id of the wrong type, echoed, after a line of chatter
		return answer(m.ID, "error", map[string]any{"code": -32600, "message": "Invalid Request"}), chatter
	case m.ID == nil:
		return nil, reply
	case m.Method == "server/discover":
		return answer(m.ID, "result", map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": caps, "resultType": "complete"}), reply
	case m.Method == "initialize": // any version it is asked for, 1900-01-01 too
		v := m.Params.ProtocolVersion
		return answer(m.ID, "result", map[string]any{"protocolVersion": v, "capabilities": caps, "serverInfo": map[string]any{"name": "wrong", "version": "1"}}), reply
	case m.Method == "ping":
		return answer(m.ID, "result", map[string]any{}), reply
	case m.Method == "tools/list":
		return answer(m.ID, "result", map[string]any{"resultType": "complete", "tools": []any{
			map[string]any{"name": "panicky", "inputSchema": json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
			map[string]any{"name": "lookup", "inputSchema": json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`)},
			map[string]any{"name": "echo", "inputSchema": json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"at":{"enum":["server/main.go:12"]}},"required":["text","at"]}`)},
		}}), reply
	case m.Method == "resources/list":
		return answer(m.ID, "result", map[string]any{"resultType": "complete", "resources": []any{}}), reply
	case m.Method == "resources/templates/list":
		return answer(m.ID, "result", map[string]any{"resultType": "complete", "resourceTemplates": []any{map[string]any{"name": "book", "uriTemplate": "books://{title}"}}}), reply
	case m.Method == "resources/read" && strings.HasPrefix(m.Params.URI, "books://"): // empty contents
		return answer(m.ID, "result", map[string]any{"resultType": "complete", "contents": []any{}}), reply
	case m.Method == "resources/read": // the retired code
		return answer(m.ID, "error", map[string]any{"code": -32002, "message": "Resource not found", "data": map[string]any{"uri": m.Params.URI}}), reply
	case m.JSONRPC != "2.0": // served anyway
		return answer(m.ID, "result", map[string]any{"resultType": "complete", "tools": []any{}}), reply
	case m.Method == "tools/call" && m.Params.Name == "panicky":
		return answer(m.ID, "result", toolError("panic: runtime error: index out of range [0] with length 0\n\ngoroutine 7 [running]:\nmain.search(...)\n\t/srv/app/search.go:42 +0x1d")), reply
	case m.Method == "tools/call" && m.Params.Name == "lookup":
		return answer(m.ID, "error", map[string]any{"code": -32603, "message": `pq: invalid input syntax for type integer: "mcpc-check"`, "data": "SELECT title FROM books WHERE id = $1"}), reply
	case m.Method == "tools/call" && m.Params.Name == "echo":
		return answer(m.ID, "result", toolError("text is required; you sent "+string(m.Params.Arguments))), reply
	case m.Method == "tools/call": // an unknown tool: a tool error
		return answer(m.ID, "result", toolError("Unknown tool: "+m.Params.Name)), reply
	case strings.HasPrefix(m.Method, "mcpc-check/"): // a hang
		return nil, hang
	}
	return answer(m.ID, "error", map[string]any{"code": -32601, "message": "Method not found"}), reply
}

// cancels reports whether line is a notifications/cancelled, after which
// the wrong server answers nothing.
func cancels(line []byte) bool {
	var m struct{ Method string }
	return json.Unmarshal(line, &m) == nil && m.Method == "notifications/cancelled"
}

// WrongServer is the server built to be wrong, over stdio: one flaw per
// lesson, each of which the check must find, within its bounds. A line
// that is not JSON kills it, a hang stops it answering anything, so does a
// reply past the check's bound, which never ends, and after a cancellation
// it is silent for good.
func WrongServer() {
	out := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 8<<20)
	silent := false
	for sc.Scan() {
		if silent = silent || cancels(sc.Bytes()); silent {
			continue
		}
		b, a := wrong(sc.Bytes())
		switch a {
		case crash:
			fmt.Fprintln(os.Stderr, "fatal: unexpected input")
			os.Exit(3)
		case flood:
			chunk := []byte(strings.Repeat("y", 1<<20))
			for {
				if _, err := os.Stdout.Write(chunk); err != nil {
					os.Exit(1)
				}
			}
		case hang: // nothing is answered any more
			if addr := os.Getenv(HangNotify); addr != "" {
				if c, err := net.Dial("tcp", addr); err == nil {
					c.Close()
				}
			}
			time.Sleep(time.Hour)
		case overlong: // the reply's bytes are judged, not the time they take
			out.Write(b[:3<<19])
			out.Flush()
			time.Sleep(time.Hour)
		case chatter:
			fmt.Fprintln(out, "debug: a strange id")
		}
		if b != nil {
			out.Write(append(b, '\n'))
			out.Flush()
		}
	}
}

// WrongHTTP is the server built to be wrong, over Streamable HTTP: the
// same flaws, as HTTP has them. A body that is not JSON drops the
// connection with no response; a hang holds its own request until the
// client gives up; after a cancellation, the session it came in answers
// nothing. A legacy initialize opens a session (Mcp-Session-Id), which it
// never checks; a status follows the reply's code.
func WrongHTTP() http.Handler {
	var mu sync.Mutex
	silent := map[string]bool{} // the sessions that sent a cancellation
	sessions := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		session := r.Header.Get("Mcp-Session-Id")
		mu.Lock()
		if cancels(body) && session != "" {
			silent[session] = true
		}
		quiet := session != "" && silent[session]
		if strings.Contains(string(body), `"initialize"`) {
			sessions++
			session = fmt.Sprintf("wrong-%d", sessions)
		}
		mu.Unlock()
		b, a := wrong(body)
		switch {
		case quiet || a == hang:
			<-r.Context().Done()
			return
		case a == crash:
			panic(http.ErrAbortHandler)
		case a == flood:
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat("y", 1<<20))
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case b == nil:
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if session != "" {
			w.Header().Set("Mcp-Session-Id", session)
		}
		w.WriteHeader(status(b))
		w.Write(b)
	})
}

// status returns the HTTP status of a reply, by its error's code as the
// transports page gives them.
func status(reply []byte) int {
	var m struct{ Error *struct{ Code int } }
	json.Unmarshal(reply, &m)
	switch {
	case m.Error == nil:
		return http.StatusOK
	case m.Error.Code == -32601:
		return http.StatusNotFound
	case m.Error.Code == -32700 || m.Error.Code == -32600 || m.Error.Code == -32602:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
