package mcp

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// handoffTestDelay is the handoffTestDelay of the handoffs the tests watch.
const handoffTestDelay = time.Millisecond

// The tests run in a synctest bubble, whose clock moves only when every
// goroutine in it is blocked: the handoff's timer fires at the instant it is
// due, however busy the machine, so the tests can say when.

// TestHandoffOfALongHandler: a handler is handed over when it has run for
// the handoffTestDelay, not before, and once.
func TestHandoffOfALongHandler(t *testing.T) {
	for _, tc := range []struct {
		name  string
		quick int           // quick handlers before the long one
		pause time.Duration // then a pause before it begins
	}{
		{"first", 0, 0},
		{"while the timer is armed for an earlier one", 1, handoffTestDelay / 2},
		{"after the timer went idle", 1, 5 * handoffTestDelay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				took := make(chan struct{}, tc.quick+2)
				w := newHandoff(handoffTestDelay, func() { took <- struct{}{} })
				for range tc.quick {
					if !w.end(w.begin()) {
						t.Fatal("a handler that took no time was handed over")
					}
				}
				time.Sleep(tc.pause)
				run := w.begin()
				time.Sleep(handoffTestDelay - time.Nanosecond)
				synctest.Wait()
				if len(took) != 0 {
					t.Fatal("a handler was handed over before it had run for the handoffTestDelay")
				}
				time.Sleep(time.Nanosecond)
				synctest.Wait()
				if len(took) != 1 {
					t.Fatal("a handler that had run for the handoffTestDelay was not handed over")
				}
				if w.end(run) {
					t.Error("end after the handoff: the caller still reads")
				}
				time.Sleep(5 * handoffTestDelay)
				synctest.Wait()
				if len(took) != 1 {
					t.Error("one long handler handed over twice")
				}
			})
		})
	}
}

// TestHandoffOneReaderAtATime runs a reader that serves a queue of quick and slow
// handlers with a handoff: each handler runs once, one goroutine at a time
// reads, each slow handler is handed over, and each handoff starts exactly
// one reader.
func TestHandoffOneReaderAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const items, slowEvery = 300, 10
		var (
			w         *handoff
			next      int          // the next item; only the reader touches it
			reading   atomic.Int32 // goroutines reading now
			handled   [items]atomic.Int32
			handlers  sync.WaitGroup
			takeOvers atomic.Int32
			lost      atomic.Int32 // ends that found reading handed over
			done      = make(chan struct{})
		)
		read := func() {
			for {
				if reading.Add(1) != 1 {
					t.Error("two goroutines read at once")
				}
				i := next
				next++
				reading.Add(-1)
				switch {
				case i == items:
					close(done)
					return
				case i > items:
					t.Error("a reader started after the last item")
					return
				}
				handlers.Add(1)
				run := w.begin()
				if i%slowEvery == slowEvery-1 {
					time.Sleep(2 * handoffTestDelay) // a slow handler
				}
				handled[i].Add(1)
				reader := w.end(run)
				handlers.Done()
				if !reader {
					lost.Add(1)
					return
				}
			}
		}
		w = newHandoff(handoffTestDelay, func() { takeOvers.Add(1); read() })
		go read()
		select {
		case <-done:
		case <-time.After(testTimeout):
			t.Fatal("reading stopped before the last item")
		}
		handlers.Wait()
		for i := range handled {
			if n := handled[i].Load(); n != 1 {
				t.Errorf("item %d handled %d times", i, n)
			}
		}
		time.Sleep(5 * handoffTestDelay) // a late handoff would come by now
		synctest.Wait()
		if n, m := takeOvers.Load(), lost.Load(); n != items/slowEvery || m != n {
			t.Errorf("%d handoffs for %d handlers that lost reading, want %d of each, one for each slow handler", n, m, items/slowEvery)
		}
	})
}
