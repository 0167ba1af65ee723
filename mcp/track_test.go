package mcp

import (
	"context"
	"encoding/json"
	"testing"
)

// cancelNote returns notifications/cancelled naming id.
func cancelNote(id string) *message {
	method := "notifications/cancelled"
	return &message{Method: &method, Params: &params{RequestID: json.RawMessage(id)}}
}

// TestTrack: notifications/cancelled cancels the tracked call it names and
// no other; a later request reusing an id replaces the first, which
// leaves the second cancellable; untrack reports each call's fate.
func TestTrack(t *testing.T) {
	var cs connState
	ctx, cl := cs.track(context.Background(), json.RawMessage(`"a"`))
	cs.notify(cancelNote(`"b"`)) // unknown: nothing happens
	cs.notify(cancelNote(`1`))
	if ctx.Err() != nil {
		t.Fatal("cancelling another id cancelled the call")
	}
	cs.notify(cancelNote(`"a"`))
	if ctx.Err() == nil {
		t.Fatal("notifications/cancelled did not cancel the call")
	}
	ctx2, cl2 := cs.track(context.Background(), json.RawMessage(`"a"`))
	if !cs.untrack(cl) {
		t.Error("untrack of the cancelled call: not cancelled")
	}
	cs.notify(cancelNote(`"\u0061"`)) // the same id, spelled otherwise
	if ctx2.Err() == nil || !cs.untrack(cl2) {
		t.Error("the call reusing the id could not be cancelled")
	}
	ctx3, cl3 := cs.track(context.Background(), json.RawMessage(`3`))
	if cs.untrack(cl3) {
		t.Error("a call never cancelled: untrack reports it cancelled")
	}
	if ctx3.Err() == nil {
		t.Error("untrack left the call's context running")
	}
	cs.notify(cancelNote(`3`)) // finished: nothing to cancel
	if len(cs.calls) != 0 {
		t.Errorf("%d calls left after all finished", len(cs.calls))
	}
}
