package mcp

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// These tests send what a hostile or broken client sends.

func TestInvalidUTF8IDIsNotEchoed(t *testing.T) {
	bad := []string{
		`{"jsonrpc":"2.0","id":"a` + "\xff" + `b","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},` + mcptest.Meta + `}}`,
		`{"jsonrpc":"2.0","id":"a` + "\xff" + `b","method":"tools\/list","params":{` + mcptest.Meta + `}}`,
		`{"jsonrpc":"2.0","id":"` + "\xc3" + `","method":"nope"}`,
	}
	s, _ := newEchoServer(nil)
	c := connect(t, s)
	for _, line := range bad {
		reply := c.call(line)
		if !utf8.ValidString(reply) || !json.Valid([]byte(reply)) {
			t.Fatalf("stdio reply to an invalid UTF-8 id is not valid JSON: %q", reply)
		}
		wantError(t, reply, "null", CodeInvalidRequest)
	}
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}

	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	defer ts.Close()
	r := httpSend(t, "POST", ts.URL, bad[0], mcptest.Headers("tools/call", "echo"))
	if !utf8.ValidString(r.Body) || !json.Valid([]byte(r.Body)) {
		t.Fatalf("HTTP reply to an invalid UTF-8 id is not valid JSON: %q", r.Body)
	}
	if r.Status != 400 || !strings.HasPrefix(r.Body, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`) {
		t.Errorf("HTTP reply to an invalid UTF-8 id: %d %s, want 400 with -32600 for id null", r.Status, r.Body)
	}
}

func TestMemberNamesAreCaseSensitive(t *testing.T) {
	// Each line in two spellings: plain, and with an escape in a string,
	// which the plain scanner declines, so the reflection decoder reads it.
	for _, tt := range []struct {
		line string
		code int    // 0: decoded
		id   string // the id decoded or answered, "" for none or null
	}{
		// "Id" is not the id: the request is a notification.
		{`{"jsonrpc":"2.0","Id":1,"method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","ID":"x","method":"ping"}`, 0, ""},
		// "METHOD" is not the method.
		{`{"jsonrpc":"2.0","id":1,"METHOD":"ping"}`, CodeInvalidRequest, "1"},
		{`{"JSONRPC":"2.0","id":1,"method":"ping"}`, CodeInvalidRequest, "1"},
		// A type error in a member of another case is no error.
		{`{"jsonrpc":"2.0","id":1,"method":"ping","Params":5}`, 0, "1"},
		// A type error elsewhere is answered to the id, not to "Id".
		{`{"jsonrpc":"2.0","Id":1,"method":7}`, CodeInvalidRequest, ""},
	} {
		for _, line := range []string{tt.line, strings.Replace(tt.line, `"2.0"`, `"2\u002e0"`, 1)} {
			m, derr := decode([]byte(line))
			switch {
			case tt.code == 0 && derr != nil:
				t.Errorf("decode(%s): %v, want a message", line, derr.err)
			case tt.code == 0 && string(m.ID) != tt.id:
				t.Errorf("decode(%s): id %s, want %q", line, m.ID, tt.id)
			case tt.code == 0 && m.Params != nil:
				t.Errorf("decode(%s): params read from another member", line)
			case tt.code != 0 && derr == nil:
				t.Errorf("decode(%s): a message, want error %d", line, tt.code)
			case tt.code != 0 && (derr.err.Code != tt.code || string(derr.id) != tt.id):
				t.Errorf("decode(%s): error %d for id %q, want %d for %q", line, derr.err.Code, derr.id, tt.code, tt.id)
			}
		}
	}
	// "Params" is not the params: the call names no tool.
	s, _ := newEchoServer(nil)
	c := connect(t, s)
	c.send(`{"jsonrpc":"2.0","Id":1,"method":"ping"}`) // a notification: no reply
	e := wantError(t, c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","Params":{"name":"echo","arguments":{"text":"hi"},`+mcptest.Meta+`}}`), "2", CodeInvalidParams)
	if d, _ := e.Data.(string); !strings.HasPrefix(d, "no protocol version") {
		t.Errorf("tools/call with Params: %v, want the error of a request without params", e.Data)
	}
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestResponsesAreNeverAnswered(t *testing.T) {
	responses := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`,
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","result":null}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`,
	}
	s, logs := newEchoServer(nil)
	c := connect(t, s)
	for _, line := range responses {
		c.send(line)
	}
	// The next line out is the reply to the next request: nothing answered
	// the responses.
	wantEchoOK(t, c.call(echoOK))
	if err := c.close(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if n := len(logs.lines()); n != 0 {
		t.Errorf("%d log lines for responses, want none: %v", n, logs.lines())
	}

	// Over HTTP, in a session, a response is accepted with no body.
	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	defer ts.Close()
	session := map[string]string{"Mcp-Session-Id": httpInitSession(t, ts.URL)}
	for _, line := range responses {
		if r := httpSend(t, "POST", ts.URL, line, session); r.Status != 202 || r.Body != "" {
			t.Errorf("HTTP response %s: %d %s, want 202 with no body", line, r.Status, r.Body)
		}
	}
}

func TestLineTooLongIsAnsweredToItsID(t *testing.T) {
	const limit = 256
	for _, size := range []int{limit + 1, 10 * limit, 200 << 10} { // the last is longer than the read buffer
		s, _ := newEchoServer(&Options{MaxLineBytes: limit})
		c := connect(t, s)
		text := strings.Repeat("x", size)
		wantError(t, c.call(mcptest.ToolCall(`"big"`, "echo", `{"text":"`+text+`"}`)), `"big"`, CodeInvalidRequest)
		wantError(t, c.call(`{ "id" : 12 , "jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"`+text+`"}}}`), "12", CodeInvalidRequest)
		// An id after the limit, a bad id, or no object: null.
		wantError(t, c.call(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"`+text+`"}},"id":3}`), "null", CodeInvalidRequest)
		wantError(t, c.call(`{"jsonrpc":"2.0","id":{"a":"`+text+`"}}`), "null", CodeInvalidRequest)
		wantError(t, c.call(`{"jsonrpc":"2.0","id":"a`+"\xff"+`","method":"`+text+`"}`), "null", CodeInvalidRequest)
		wantError(t, c.call(`[{"jsonrpc":"2.0","id":4,"method":"`+text+`"}]`), "null", CodeInvalidRequest)
		wantEchoOK(t, c.call(echoOK))
		if err := c.close(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
}
