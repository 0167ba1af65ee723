package mcp

import (
	"io"
	"math"
	"sync"
	"time"
)

// logWriter is a buffer in front of the default logger's writer, stderr.
// A server under load logs a line per failed call; written one by one,
// each line would cost a system call, as much as the call's own reply. So
// lines are gathered and written together, at most a delay after the
// first of them, or at once when logWriterSize bytes are waiting. The
// server flushes it when it stops serving and before Main exits, so that
// no line is lost (see Server.flushLog).
type logWriter struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte
	delay   time.Duration // from the first line buffered to the write
	pending bool          // the timer is armed
	timer   *time.Timer   // flushes the buffer
	err     error         // of the last write to w
}

// The bounds on how long and how much a logWriter holds by default.
const (
	logFlushDelay = 5 * time.Millisecond
	logWriterSize = 32 << 10
)

// never is a timer duration that does not elapse.
const never = time.Duration(math.MaxInt64)

// newLogWriter returns a logWriter writing to w at most delay after a line
// is written.
func newLogWriter(w io.Writer, delay time.Duration) *logWriter {
	l := &logWriter{w: w, delay: delay}
	l.timer = time.AfterFunc(never, l.Flush)
	return l
}

// Write adds the line p to the buffer. It reports the error of an earlier
// write that failed, if any, as a line is written later than it is logged.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	switch {
	case len(l.buf) >= logWriterSize:
		l.flush()
	case !l.pending:
		l.pending = true
		l.timer.Reset(l.delay)
	}
	return len(p), l.err
}

// Flush writes the lines waiting in the buffer.
func (l *logWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush()
}

// flush writes the buffer; l.mu is held.
func (l *logWriter) flush() {
	if l.pending {
		l.timer.Stop()
		l.pending = false
	}
	if len(l.buf) == 0 {
		return
	}
	_, l.err = l.w.Write(l.buf)
	if cap(l.buf) > 4*logWriterSize { // after a burst of long lines
		l.buf = nil
	}
	l.buf = l.buf[:0]
}
