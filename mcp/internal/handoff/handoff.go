// Package handoff lets the goroutine reading a stream run each handler
// itself, and hands reading over to a new goroutine when a handler runs
// long, so that the requests after it are not held up.
package handoff

import (
	"math"
	"sync/atomic"
	"time"
)

// Watch watches the handlers that a stream's reader runs, one at a time,
// and starts a new reader when one of them has run for its delay.
//
// A handler costs it a clock reading and three atomic operations. Its one
// timer is armed when a handler begins while the timer is idle, and is
// never stopped: when it fires, it hands reading over if the handler
// running has run for the delay, and waits for the rest of the delay if a
// later one is running. While handlers keep beginning, it keeps firing
// every delay; after a delay with none, it goes idle.
type Watch struct {
	delay    time.Duration
	takeOver func()
	epoch    time.Time // the origin of the times in running
	timer    *time.Timer

	// running holds when the handler running began, in nanoseconds since
	// epoch (above 0); once it has returned, that time negated; and 0
	// before the first handler and after a handoff. The reader's End and
	// the timer's handoff each swap it from that time: whichever comes
	// first decides who reads.
	running atomic.Int64
	armed   atomic.Bool // the timer is pending or firing
}

// A Run is a handler's turn on the reader, from Begin to End.
type Run int64

// New returns a Watch that calls takeOver, on a goroutine of its own, when
// a handler has run for delay; takeOver goes on reading the stream.
func New(delay time.Duration, takeOver func()) *Watch {
	w := &Watch{delay: delay, takeOver: takeOver, epoch: time.Now()}
	w.timer = time.AfterFunc(math.MaxInt64, w.fire) // armed by Begin
	return w
}

// Begin records that the reader begins running a handler, and returns the
// run to give End when it returns. Requests read from the stream after
// Begin may be read by another goroutine.
func (w *Watch) Begin() Run {
	began := w.now()
	w.running.Store(began)
	if !w.armed.Load() && w.armed.CompareAndSwap(false, true) {
		w.timer.Reset(w.delay)
	}
	return Run(began)
}

// End records that the handler of run has returned, and reports whether
// the caller is still the reader. When it is not, reading was handed over
// while the handler ran, and the caller must not read again.
func (w *Watch) End(run Run) bool {
	return w.running.CompareAndSwap(int64(run), -int64(run))
}

// now returns the time since epoch, above 0.
func (w *Watch) now() int64 {
	return int64(time.Since(w.epoch)) + 1
}

// fire runs when the timer fires.
func (w *Watch) fire() {
	for {
		began := w.running.Load()
		if began <= 0 {
			if began < 0 && w.now()+began < int64(w.delay) {
				w.timer.Reset(w.delay) // handlers keep beginning: cheaper than arming it anew
				return
			}
			// Idle. A handler beginning from now on arms the timer; one
			// that began before it could see the timer still armed.
			w.armed.Store(false)
			if w.running.Load() <= 0 || !w.armed.CompareAndSwap(false, true) {
				return
			}
			continue
		}
		if rest := began + int64(w.delay) - w.now(); rest > 0 {
			w.timer.Reset(time.Duration(rest))
			return
		}
		if w.running.CompareAndSwap(began, 0) {
			w.armed.Store(false) // before the next reader begins a handler
			w.takeOver()         // on the timer's goroutine
			return
		}
		// The handler returned meanwhile: look again.
	}
}
