package mcptest

import (
	"net/http"
	"testing"
)

// TestSetPostHeaders: a POST carries Accept and Content-Type, then the
// headers asked for; an empty value removes a header.
func TestSetPostHeaders(t *testing.T) {
	h := http.Header{}
	SetPostHeaders(h, map[string]string{"Content-Type": "", "Mcp-Session-Id": "s1", "Mcp-Name": ""})
	want := http.Header{"Accept": {"application/json, text/event-stream"}, "Mcp-Session-Id": {"s1"}}
	if len(h) != len(want) || h.Get("Accept") != want.Get("Accept") || h.Get("Mcp-Session-Id") != "s1" {
		t.Errorf("headers %v, want %v", h, want)
	}
}
