package pins

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/rogpeppe/go-internal/testscript"
)

// exchangeCmd is the guide's exchange command (exchange.Cmd), with one
// difference for a server that answers a request the client cancelled,
// which the guide's servers never do and mcp-go does: that answer races
// the replies to the requests sent after the cancellation, so it is
// printed after every other line the server wrote, where a pin can hold
// it on every run. Every other line is printed as it came.
func exchangeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("exchange does not support negation: a failed exchange is a failed test")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exchange <requests> <server> [args...]")
	}
	requests := strings.Split(ts.ReadFile(args[0]), "\n")
	cancelled := cancelledIDs(requests)
	var stderr bytes.Buffer
	var late [][]byte
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stderr = &stderr
	err := lockstep.Run(context.Background(), cmd, requests, lockstep.ReplyTimeout, func(line []byte) {
		if cancelled[responseID(line)] {
			late = append(late, bytes.Clone(line))
			return
		}
		ts.Stdout().Write(line)
	})
	for _, line := range late {
		ts.Stdout().Write(line)
	}
	log := stderr.String()
	if work := ts.Getenv("WORK"); work != "" {
		log = strings.ReplaceAll(log, work, "$WORK")
	}
	ts.Stderr().Write([]byte(exchange.NormalizeLog(log)))
	if err != nil {
		ts.Logf("[the server's log, as written]\n%s", log)
		ts.Fatalf("exchange %s: %v", args[0], err)
	}
}

// cancelledIDs returns the ids, as compact JSON, of the requests among
// lines that a later line cancels: those lockstep owes no reply.
func cancelledIDs(lines []string) map[string]bool {
	ids := make(map[string]bool)
	owed := lockstep.OwedReplies(lines)
	for n, line := range lines {
		if owed[n] || !lockstep.ExpectsReply([]byte(line)) {
			continue
		}
		var m struct{ ID json.RawMessage }
		if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil {
			ids[compactJSON(m.ID)] = true
		}
	}
	return ids
}

// responseID returns the id of the response line, as compact JSON, or ""
// for a line that is not a response.
func responseID(line []byte) string {
	var m struct {
		ID     json.RawMessage
		Method *string
	}
	if json.Unmarshal(line, &m) != nil || m.Method != nil || m.ID == nil {
		return ""
	}
	return compactJSON(m.ID)
}

// compactJSON returns raw without insignificant spaces.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
