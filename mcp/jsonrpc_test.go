package mcp

import (
	"encoding/json"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		line   string
		code   int    // 0: decoded
		id     string // the id to answer, "" for null
		detail string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 0, "1", ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, "", ""},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, 0, `"a"`, ""},
		{`{"jsonrpc":"2.0","method":"n","params":[1]}`, 0, "", ""}, // a notification's bad params are dropped
		{`{"jsonrpc":`, CodeParseError, "", "unexpected end of JSON input"},
		{`nul`, CodeParseError, "", ""},
		{`"hello"`, CodeInvalidRequest, "", "a message must be a JSON object"},
		{`null`, CodeInvalidRequest, "", `"jsonrpc" must be "2.0"`},
		{`{"jsonrpc":2,"id":1,"method":"m"}`, CodeInvalidRequest, "1", `"jsonrpc" must be a string, not a number`},
		{`{"id":1,"method":"m"}`, CodeInvalidRequest, "1", `"jsonrpc" must be "2.0"`},
		{`{"jsonrpc":"2.0","id":true,"method":"m"}`, CodeInvalidRequest, "", `"id" must be a string or a number`},
		{`{"jsonrpc":"2.0","id":null,"method":"m"}`, CodeInvalidRequest, "", `"id" must be a string or a number`},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"m\"}", CodeInvalidRequest, "", `"id" must be a string or a number`},
		{`{"jsonrpc":"2.0","id":"caf\u00e9","method":"m"}`, 0, `"caf\u00e9"`, ""},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"caf\u00e9\",\"method\":\"m\"}", 0, "\"caf\u00e9\"", ""},
		{`{"jsonrpc":"2.0","id":1}`, CodeInvalidRequest, "1", `"method" is missing`},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, CodeInvalidRequest, "1", `"method" is empty`},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, CodeInvalidRequest, "1", `"method" must be a string, not a number`},
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`, CodeInvalidParams, "1", `"params" must be an object, not a string`},
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"uri":5}}`, CodeInvalidParams, "1", `"params.uri" must be a string, not a number`},
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}}`, CodeInvalidParams, "1",
			`"params._meta[io.modelcontextprotocol/protocolVersion]" must be a string, not a number`},
	} {
		m, derr := decode([]byte(tt.line))
		switch {
		case tt.code == 0 && derr != nil:
			t.Errorf("decode(%s): %v, want a message", tt.line, derr.err)
		case tt.code == 0 && string(m.ID) != tt.id && !(tt.id == "" && m.ID == nil):
			t.Errorf("decode(%s): id %s, want %s", tt.line, m.ID, tt.id)
		case tt.code != 0 && derr == nil:
			t.Errorf("decode(%s): a message, want error %d", tt.line, tt.code)
		case tt.code != 0 && (derr.err.Code != tt.code || string(derr.id) != tt.id):
			t.Errorf("decode(%s): error %d for id %q, want %d for %q", tt.line, derr.err.Code, derr.id, tt.code, tt.id)
		case tt.code != 0 && tt.detail != "" && derr.err.Data != tt.detail:
			t.Errorf("decode(%s): detail %q, want %q", tt.line, derr.err.Data, tt.detail)
		}
	}
}

func TestEncodeEchoesIDs(t *testing.T) {
	for _, id := range []string{`1`, `-7`, `123456789012345678901234567890`, `1.5e3`, `"a"`, `"caf\u00e9 \"q\""`, `""`} {
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"
		if got := string(must(encodeResponse(json.RawMessage(id), resultMember, struct{}{}))); got != want {
			t.Errorf("result for id %s: %s, want %s", id, got, want)
		}
	}
	if got, want := string(encodeError(nil, errParseError.error("x"))), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"x"}}`+"\n"; got != want {
		t.Errorf("error with no id: %s, want %s", got, want)
	}
}

func TestEncodeFailures(t *testing.T) {
	// Data that cannot be marshalled is dropped; code and message remain.
	got := string(encodeError(json.RawMessage("2"), &Error{Code: -1, Message: "m", Data: make(chan int)}))
	if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"m"}}` + "\n"; got != want {
		t.Errorf("unencodable data: %s, want %s", got, want)
	}
	// Text is never HTML-escaped: the wire carries what the handler said.
	got = string(must(encodeResponse(json.RawMessage("3"), resultMember, "<b>&</b>")))
	if want := `{"jsonrpc":"2.0","id":3,"result":"<b>&</b>"}` + "\n"; got != want {
		t.Errorf("HTML in a result: %s, want %s", got, want)
	}
}

// must returns b, failing on err.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
