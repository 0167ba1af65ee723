package exchange

import (
	"bytes"
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
		if id, ok := lockstep.ID([]byte(line)); ok && !owed[n] && lockstep.ExpectsReply([]byte(line)) {
			cancelled[id] = true
		}
	}
	var late [][]byte
	each = func(line []byte) {
		if id, ok := lockstep.ID(line); ok && cancelled[id] {
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
