package mcp

import (
	"io"
	"sync"
	"time"
)

// logWriter is where the default logger writes: stderr, through a buffer.
// A server under load logs a line per failed call; written one by one,
// each line would cost a system call, as much as the call's own reply. So
// lines are gathered and written together, at most logFlushDelay after the
// first of them, or at once when logBufferSize bytes are waiting. The
// server flushes it when it stops serving, and Main before it exits, so
// that no line is lost; a recovered panic is flushed at once.
type logWriter struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte
	delay   time.Duration // logFlushDelay
	pending bool          // the timer is armed
	timer   *time.Timer   // flushes the buffer
	err     error         // of the last write to w
}

// The bounds on how long and how much the log buffer holds.
const (
	logFlushDelay = 5 * time.Millisecond
	logBufferSize = 32 << 10
)

// newLogWriter returns a logWriter writing to w.
func newLogWriter(w io.Writer) *logWriter {
	l := &logWriter{w: w, delay: logFlushDelay}
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
	case len(l.buf) >= logBufferSize:
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
	if cap(l.buf) > 4*logBufferSize { // after a burst of long lines
		l.buf = nil
	}
	l.buf = l.buf[:0]
}

// flushLog writes the log lines still buffered, when the server logs
// through the default logger.
func (s *Server) flushLog() {
	if s.logw != nil {
		s.logw.Flush()
	}
}
