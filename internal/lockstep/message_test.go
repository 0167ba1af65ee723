package lockstep

import (
	"slices"
	"testing"
)

const (
	request      = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	notification = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func TestExpectsReply(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{request, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true},
		{notification, false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, true},
		{`{"jsonrpc":"1.0","method":"notifications/initialized"}`, true},
		{`{"jsonrpc":"2.0","method":""}`, true},
		{`{"jsonrpc":"2.0","method":1}`, true},
		{`{"jsonrpc":"2.0","id":null,"method":"x"}`, true},
		{`{"jsonrpc":"2.0","method":`, true},
		{`{"jsonrpc":"2.0","id":1,"params":{}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"x"}}`, false},
		{`{"jsonrpc":"2.0","id":null,"result":{}}`, true},
		{`42`, true},
		{`[]`, true},
		{`[` + notification + `]`, false},
		{`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`, false},
		{`[` + notification + `,` + request + `]`, true},
		{`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]`, true},
		{`[` + notification + `,42]`, true},
		{"", false},
		{" \t", false},
		{"  " + notification + " ", false},
	} {
		if got := ExpectsReply([]byte(tt.line)); got != tt.want {
			t.Errorf("ExpectsReply(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestOwedReplies(t *testing.T) {
	const (
		wait    = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`
		cancel2 = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"enough"}}`
	)
	for _, tt := range []struct {
		name  string
		lines []string
		want  []bool
	}{
		{"no cancellation", []string{request, notification, wait}, []bool{true, false, true}},
		{"cancelled later", []string{wait, cancel2, request}, []bool{false, false, true}},
		{"cancelled after other requests", []string{wait, request, cancel2}, []bool{false, true, false}},
		{"cancelled before it is sent", []string{cancel2, wait}, []bool{false, true}},
		{"another id", []string{wait, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`}, []bool{true, false}},
		{"a string id is not a number", []string{wait, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"2"}}`}, []bool{true, false}},
		{"spaces in the ids", []string{`{"jsonrpc":"2.0","id": "a b" ,"method":"x"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a b"}}`}, []bool{false, false}},
		{"not a notification", []string{wait, `{"jsonrpc":"2.0","id":9,"method":"notifications/cancelled","params":{"requestId":2}}`}, []bool{true, true}},
		{"another notification", []string{wait, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":2}}`}, []bool{true, false}},
		{"an id in invalid UTF-8 is no id", []string{"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"x\"}",
			"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"\xff\"}}"}, []bool{true, false}},
		{"a batch is answered whole", []string{`[` + wait + `]`, cancel2}, []bool{true, false}},
	} {
		got := OwedReplies(tt.lines)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: OwedReplies = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCheckMessage(t *testing.T) {
	for _, tt := range []struct {
		line      string
		ok, reply bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", true, true},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n", true, true},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n", true, false},
		{`{"jsonrpc":"2.0","id":7,"method":"roots/list"}` + "\n", true, false},
		{`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]` + "\n", true, true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false, false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}{}` + "\n", false, false},
		{`{"id":1,"result":{}}` + "\n", false, false},
		{`{"jsonrpc":"2.0","result":{}}` + "\n", false, false},
		{`{"jsonrpc":"2.0","id":1}` + "\n", false, false},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}` + "\n", false, false},
		{`{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}` + "\n", false, false},
		{`[]` + "\n", false, false},
		{`[1]` + "\n", false, false},
		{"hello\n", false, false},
	} {
		reply, err := checkMessage([]byte(tt.line))
		if (err == nil) != tt.ok || reply != tt.reply {
			t.Errorf("checkMessage(%q) = %v, %v; want ok = %v, reply = %v", tt.line, reply, err, tt.ok, tt.reply)
		}
	}
}
