package checktest

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// SilentLegacyServer is a session-era server over stdio (2025-11-25) that
// never answers a method it does not know: server/discover and the check's
// unknown method get no reply at all. It answers ping before initialize,
// as the spec allows, which is how the check finds quickly that it does not
// speak 2026-07-28; the rest it answers as the guide does.
func SilentLegacyServer() {
	reply := replier()
	fail := func(id json.RawMessage, code int, message string, data any) {
		e := map[string]any{"code": code, "message": message}
		if data != nil {
			e["data"] = data
		}
		reply(id, "error", e)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if strings.HasPrefix(strings.TrimSpace(string(line)), "[") {
			fail(nil, -32600, "Invalid Request: batches are not supported", nil)
			continue
		}
		var m message
		switch {
		case json.Unmarshal(line, &m) != nil:
			fail(nil, -32700, "Parse error", nil)
			continue
		case m.JSONRPC != "2.0" || len(m.ID) > 0 && (m.ID[0] == '{' || m.ID[0] == '['):
			fail(nil, -32600, "Invalid Request", nil)
			continue
		case m.ID == nil: // a notification
			continue
		}
		switch m.Method {
		case "initialize":
			reply(m.ID, "result", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}, "resources": map[string]any{}},
				"serverInfo": map[string]any{"name": "silent-legacy", "version": "1"}})
		case "ping":
			reply(m.ID, "result", map[string]any{})
		case "tools/list":
			reply(m.ID, "result", map[string]any{"tools": []any{map[string]any{"name": "greet",
				"inputSchema": json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}}})
		case "tools/call":
			if m.Params.Name != "greet" {
				fail(m.ID, -32602, "Unknown tool: "+m.Params.Name, nil)
				break
			}
			var args struct{ Name *string }
			text, isError := "name is required, and must be a string", true
			if json.Unmarshal(m.Params.Arguments, &args) == nil && args.Name != nil {
				text, isError = "Hello, "+*args.Name, false
			}
			reply(m.ID, "result", map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError})
		case "resources/list":
			reply(m.ID, "result", map[string]any{"resources": []any{}})
		case "resources/templates/list":
			reply(m.ID, "result", map[string]any{"resourceTemplates": []any{}})
		case "resources/read":
			fail(m.ID, -32002, "Resource not found", map[string]any{"uri": m.Params.URI})
		}
	}
}
