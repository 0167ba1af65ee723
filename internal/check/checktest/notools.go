package checktest

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// NoTools is a 2026-07-28 server over stdio that offers resources and no
// tools. It answers tools/list, a method it does not have, with -32601 to
// whatever id the request carries, and serves a request whose id is an
// object as any other: the check's verdicts on it must not depend on its
// having no tools.
func NoTools() {
	reply := replier()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Bytes()
		if strings.HasPrefix(strings.TrimSpace(string(line)), "[") {
			reply(nil, "error", map[string]any{"code": -32600, "message": "Invalid Request: batches are not supported"})
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				URI  string         `json:"uri"`
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil {
			reply(nil, "error", map[string]any{"code": -32700, "message": "Parse error"})
			continue
		}
		if m.ID == nil {
			continue // a notification
		}
		if v, _ := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); v != "" && v != "2026-07-28" {
			reply(m.ID, "error", map[string]any{"code": -32022, "message": "Unsupported protocol version", "data": map[string]any{"supported": []string{"2026-07-28"}, "requested": v}})
			continue
		}
		switch m.Method {
		case "server/discover":
			reply(m.ID, "result", map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"resources": map[string]any{}}, "resultType": "complete"})
		case "resources/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "resources": []any{}})
		case "resources/templates/list":
			reply(m.ID, "result", map[string]any{"resultType": "complete", "resourceTemplates": []any{}})
		case "resources/read":
			reply(m.ID, "error", map[string]any{"code": -32602, "message": "Resource not found", "data": map[string]any{"uri": m.Params.URI}})
		default: // tools/list among them
			reply(m.ID, "error", map[string]any{"code": -32601, "message": "Method not found"})
		}
	}
}

// replier returns a function that writes a JSON-RPC reply to stdout, one
// line each, with the id null when id is nil.
func replier() func(id json.RawMessage, member string, v any) {
	out := bufio.NewWriter(os.Stdout)
	return func(id json.RawMessage, member string, v any) {
		if id == nil {
			id = json.RawMessage("null")
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, member: v})
		out.Write(append(b, '\n'))
		out.Flush()
	}
}
