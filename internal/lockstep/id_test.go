package lockstep_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/mcpbookshop/guide/mcp"
)

// TestIDReadAsTheCore checks that lockstep reads a request's id as the
// core does: an id lockstep reads is the one the core's reply echoes, and
// an id it cannot read is one the core answers with null. Both read an id
// with jsonwire.ValidID; invalid UTF-8 is the case the two once read apart,
// when each had its own copy.
func TestIDReadAsTheCore(t *testing.T) {
	session := mcp.NewServer("ids", "1.0.0", nil).NewSession()
	for _, id := range []string{
		`1`, `-7`, `1.5e3`, `"a"`, `""`, `"caf\u00e9"`, "\"caf\u00e9\"", `"\ud800"`,
		"\"a\xffb\"", "\"\xc3\"", "\"\xed\xa0\x80\"", // invalid UTF-8: a stray byte, a cut sequence, a surrogate
		`null`, `true`, `{}`, `[1]`,
	} {
		line := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		var reply struct{ ID json.RawMessage }
		if err := json.Unmarshal(session.Handle(context.Background(), line), &reply); err != nil {
			t.Fatalf("id %q: the core's reply: %v", id, err)
		}
		core := string(reply.ID) != "null"
		got, ok := lockstep.ID(line)
		if ok != core || ok && got != string(reply.ID) {
			t.Errorf("id %q: lockstep reads %q (%v), the core answers to %s", id, got, ok, reply.ID)
		}
	}
}
