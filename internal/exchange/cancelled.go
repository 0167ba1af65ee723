package exchange

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/mcpbookshop/guide/internal/lockstep"
)

// cancelledLast returns each, which writes a line the server printed to w,
// and flush, which writes the lines each held back: the replies to
// requests that a later line of requests cancels, in the order they came.
//
// A server owes a cancelled request no reply, and the guide's servers send
// none, so a pin that holds none fails on one. Other servers answer it all
// the same (mcp-go does, see sdks/mcpgo): the reply races the replies to
// the requests sent after the cancellation, and is written after every
// other line so that a pin holds it on every run.
func cancelledLast(w io.Writer, requests []string) (each func(line []byte), flush func()) {
	cancelled := make(map[string]bool)
	owed := lockstep.OwedReplies(requests)
	for n, line := range requests {
		if id := messageID([]byte(line)); id != "" && !owed[n] && lockstep.ExpectsReply([]byte(line)) {
			cancelled[id] = true
		}
	}
	var late [][]byte
	each = func(line []byte) {
		if len(cancelled) > 0 && cancelled[messageID(line)] {
			late = append(late, bytes.Clone(line))
			return
		}
		w.Write(line)
	}
	flush = func() {
		for _, line := range late {
			w.Write(line)
		}
		late = nil
	}
	return each, flush
}

// messageID returns the id of a JSON-RPC message, compacted, or "" for a
// line that has none.
func messageID(line []byte) string {
	var m struct{ ID json.RawMessage }
	if json.Unmarshal(line, &m) != nil || m.ID == nil || string(m.ID) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, m.ID) != nil {
		return ""
	}
	return b.String()
}
