package mcptest

import (
	"encoding/json"
	"fmt"
	"testing"
)

// Reply is a JSON-RPC response line, decoded: exactly one of Result and
// Error is set.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Error is the error of a [Reply], as mcp.Error decodes it: Data is what
// encoding/json makes of any JSON value (a string, a map, ...).
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// ToolResult is the result of a tools/call: its content blocks, and
// whether it is a tool error.
type ToolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// ParseReply decodes line, which must be a JSON-RPC response: an object
// with a result (not null) or an error, not both.
func ParseReply(line string) (Reply, error) {
	var r Reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return Reply{}, fmt.Errorf("the answer %q is not a response: %v", line, err)
	}
	if hasResult := len(r.Result) > 0 && string(r.Result) != "null"; hasResult == (r.Error != nil) {
		return Reply{}, fmt.Errorf("the answer %q is not a response: it needs a result or an error, one of them", line)
	}
	return r, nil
}

// DecodeReply is [ParseReply], failing t when line is not a response.
func DecodeReply(t testing.TB, line string) Reply {
	t.Helper()
	r, err := ParseReply(line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ToolResult decodes r's result as a tools/call result, failing t if it
// is not one.
func (r Reply) ToolResult(t testing.TB) ToolResult {
	t.Helper()
	var tr ToolResult
	if err := json.Unmarshal(r.Result, &tr); err != nil {
		t.Fatalf("the result %s is not a tools/call result: %v", r.Result, err)
	}
	return tr
}
