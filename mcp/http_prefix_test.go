package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// TestHTTPSessionIDPrefix: with HTTPOptions.SessionIDPrefix, every legacy
// session id starts with the prefix, and the session it names works.
func TestHTTPSessionIDPrefix(t *testing.T) {
	h := NewServer("prefix", "1.0.0", nil).HTTPHandler(&HTTPOptions{SessionIDPrefix: "b2-"})
	post := func(body, session string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		mcptest.SetPostHeaders(req.Header, map[string]string{"Mcp-Session-Id": session})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	seen := make(map[string]bool)
	for range 3 {
		rec := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
		id := rec.Header().Get("Mcp-Session-Id")
		if rec.Code != http.StatusOK || !strings.HasPrefix(id, "b2-") || len(id) <= len("b2-") || seen[id] {
			t.Fatalf("initialize: %d, session id %q; want 200 and a new id starting with b2-", rec.Code, id)
		}
		seen[id] = true
		if rec := post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, id); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"result":{}`) {
			t.Errorf("ping in session %s: %d %s", id, rec.Code, rec.Body)
		}
	}
}
