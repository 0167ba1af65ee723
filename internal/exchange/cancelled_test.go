package exchange

import (
	"bytes"
	"testing"
)

// TestCancelledLast checks that a reply to a cancelled request is written
// after every other line, and that nothing else moves.
func TestCancelledLast(t *testing.T) {
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait_for_stock"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_author"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}
	var out bytes.Buffer
	each, flush := cancelledLast(&out, requests)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":"1","result":{}}` + "\n",
		`{"jsonrpc":"2.0","id": 1,"error":{"code":-32603,"message":"context canceled"}}` + "\n",
		`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n",
	} {
		each([]byte(line))
	}
	flush()
	want := `{"jsonrpc":"2.0","id":"1","result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n" +
		`{"jsonrpc":"2.0","id": 1,"error":{"code":-32603,"message":"context canceled"}}` + "\n"
	if out.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", out.String(), want)
	}
}
