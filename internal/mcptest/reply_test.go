package mcptest

import "testing"

// TestParseReply: a response has a result or an error, never both nor
// neither; anything else is refused.
func TestParseReply(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, true},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":"d"}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":null}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/message"}`, false},
		{`{"jsonrpc":`, false},
	} {
		r, err := ParseReply(tt.line)
		if (err == nil) != tt.ok {
			t.Errorf("ParseReply(%s) = %+v, %v; want ok %v", tt.line, r, err, tt.ok)
		}
	}
	r, _ := ParseReply(`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"m","data":"d"}}`)
	if string(r.ID) != `"a"` || r.Error.Code != -32602 || r.Error.Message != "m" || r.Error.Data != "d" {
		t.Errorf("decoded %+v, error %+v", r, r.Error)
	}
}

// TestToolResult: a tools/call result's content and isError are read.
func TestToolResult(t *testing.T) {
	r := DecodeReply(t, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"No book."}],"isError":true}}`)
	if tr := r.ToolResult(t); !tr.IsError || len(tr.Content) != 1 || tr.Content[0].Type != "text" || tr.Content[0].Text != "No book." {
		t.Errorf("ToolResult() = %+v", tr)
	}
}
