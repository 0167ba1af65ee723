package inflight

import (
	"context"
	"testing"
)

func TestSet(t *testing.T) {
	var s Set
	ctx, cancel := context.WithCancel(context.Background())
	cl := s.Start("a", cancel)
	s.Cancel("b") // unknown: nothing happens
	if ctx.Err() != nil {
		t.Fatal("cancelling another key cancelled the call")
	}
	s.Cancel("a")
	if ctx.Err() == nil {
		t.Fatal("Cancel did not cancel the call")
	}
	// A later request reusing the key replaces it; finishing the first
	// leaves the second cancellable.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cl2 := s.Start("a", cancel2)
	if !s.Finish("a", cl) {
		t.Error("Finish of the cancelled call: not cancelled")
	}
	s.Cancel("a")
	if ctx2.Err() == nil || !s.Finish("a", cl2) {
		t.Error("the call reusing the key could not be cancelled")
	}
	_, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	if s.Finish("c", s.Start("c", cancel3)) {
		t.Error("a call never cancelled: Finish reports it cancelled")
	}
	s.Cancel("c") // finished: nothing to cancel
	if len(s.m) != 0 {
		t.Errorf("%d calls left after all finished", len(s.m))
	}
}
