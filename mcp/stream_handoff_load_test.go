package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// TestServeHandoffUnderLoad pipelines quick calls, slow calls and calls
// that wait to be cancelled, as BenchmarkServeLine's inline handlers and
// their handoff to a new reader must serve them: every call is answered
// exactly once, except the cancelled ones, which are never answered. It
// runs in a synctest bubble, whose clock moves only when every goroutine
// in it waits: each slow call outlasts handoffDelay, however busy the
// machine, and is handed over.
func TestServeHandoffUnderLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const calls = 120
		s, _ := newTestServer(nil)
		type work struct {
			Mode string `json:"mode"`
		}
		AddTool(s, Tool{Name: "work"}, func(ctx context.Context, w work) (string, error) {
			switch w.Mode {
			case "slow":
				time.Sleep(2 * handoffDelay)
			case "wait":
				select {
				case <-ctx.Done():
				case <-time.After(testTimeout):
				}
			}
			return w.Mode, nil
		})
		c := connect(t, s)
		want := make(map[string]string)
		for i := range calls {
			id := strconv.Itoa(i)
			mode := [...]string{"quick", "slow", "quick", "wait"}[i%4]
			c.send(mcptest.ToolCall(id, "work", `{"mode":"`+mode+`"}`))
			if mode == "wait" {
				c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, id))
				continue
			}
			want[id] = `"text":"` + mode + `"`
		}
		for range len(want) {
			r := mcptest.DecodeReply(t, c.recv())
			text, ok := want[string(r.ID)]
			if !ok || !strings.Contains(string(r.Result), text) {
				t.Fatalf("reply for %s: %s; want one result for each call not cancelled", r.ID, r.Result)
			}
			delete(want, string(r.ID))
		}
		if err := c.close(); err != nil { // fails on any reply after the expected ones
			t.Errorf("Serve: %v", err)
		}
	})
}
