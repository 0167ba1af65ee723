package handoff

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	delay       = time.Millisecond
	testTimeout = 5 * time.Second
)

func TestHandsOverALongHandler(t *testing.T) {
	for _, tc := range []struct {
		name  string
		quick int           // quick handlers before the long one
		pause time.Duration // then a pause before it begins
	}{
		{"first", 0, 0},
		{"while the timer is armed for an earlier one", 1, delay / 2},
		{"after the timer went idle", 1, 5 * delay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			took := make(chan struct{}, tc.quick+2)
			w := New(delay, func() { took <- struct{}{} })
			for range tc.quick {
				if !w.End(w.Begin()) { // held up for the delay on a busy machine
					<-took
				}
			}
			time.Sleep(tc.pause)
			run := w.Begin()
			select {
			case <-took:
			case <-time.After(testTimeout):
				t.Fatal("a handler running past the delay was not handed over")
			}
			if w.End(run) {
				t.Error("End after the handoff: the caller still reads")
			}
			select {
			case <-took:
				t.Error("one long handler handed over twice")
			default:
			}
		})
	}
}

// TestOneReaderAtATime runs a reader that serves a queue of quick and slow
// handlers with a Watch: each handler runs once, one goroutine at a time
// reads, and each handoff starts exactly one reader.
func TestOneReaderAtATime(t *testing.T) {
	const items = 300
	var (
		w         *Watch
		next      int          // the next item; only the reader touches it
		reading   atomic.Int32 // goroutines reading now
		handled   [items]atomic.Int32
		handlers  sync.WaitGroup
		takeOvers atomic.Int32
		lost      atomic.Int32 // Ends that found reading handed over
		done      = make(chan struct{})
	)
	var read func()
	read = func() {
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
			run := w.Begin()
			if i%10 == 9 {
				time.Sleep(2 * delay) // handed over, unless the timer is held up as long
			}
			handled[i].Add(1)
			reader := w.End(run)
			handlers.Done()
			if !reader {
				lost.Add(1)
				return
			}
		}
	}
	w = New(delay, func() { takeOvers.Add(1); read() })
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
	time.Sleep(5 * delay) // a late handoff would show now
	if n, m := takeOvers.Load(), lost.Load(); n != m {
		t.Errorf("%d handoffs for %d handlers that lost reading, want as many", n, m)
	}
}
