package checktest

import (
	"bufio"
	"encoding/json"
	"os"
)

// LateReplier is a 2026-07-28 server over stdio with one tool, slow, that
// answers a call of it only once the check gave up on it: it holds the
// reply until the call is cancelled and then writes it, -32603 "context
// canceled", just before it reads the next message, so that the late reply
// comes first while the next probe is pending. It waits on what it reads,
// never on time: the reply is late by the check's own bound, every run.
func LateReplier() {
	reply := replier()
	var held, cancelled json.RawMessage // the id of the call it holds; set once that call was cancelled
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		bad := json.Unmarshal(sc.Bytes(), &m) != nil
		if cancelled != nil {
			reply(cancelled, "error", map[string]any{"code": -32603, "message": "context canceled"})
			held, cancelled = nil, nil
		}
		switch {
		case bad: // a batch too
			reply(nil, "error", map[string]any{"code": -32700, "message": "Parse error"})
		case m.Method == "notifications/cancelled" && held != nil && string(m.Params.RequestID) == string(held):
			cancelled = held
		case m.ID == nil: // another notification
		case m.Method == "server/discover":
			reply(m.ID, "result", map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}}, "resultType": "complete"})
		case m.Method == "tools/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "tools": []any{map[string]any{
				"name": "slow", "description": "Answers once it is cancelled.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []string{"n"}},
			}}})
		case m.Method == "tools/call" && m.Params.Name == "slow":
			held = m.ID
		case m.Method == "tools/call":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "isError": true, "content": []any{map[string]any{"type": "text", "text": "Unknown tool: " + m.Params.Name}}})
		default:
			reply(m.ID, "error", map[string]any{"code": -32601, "message": "Method not found"})
		}
	}
}
