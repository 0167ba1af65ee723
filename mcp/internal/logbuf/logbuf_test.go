package logbuf

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// writeRecorder records each write it gets.
type writeRecorder struct {
	mu     sync.Mutex
	writes []string
	got    chan struct{} // receives after each write
}

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	w.got <- struct{}{}
	return len(p), nil
}

func (w *writeRecorder) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.writes...)
}

func TestWriterGathersLines(t *testing.T) {
	rec := &writeRecorder{got: make(chan struct{}, 100)}
	l := New(rec, never) // only Flush and a full buffer write
	line := strings.Repeat("x", 99) + "\n"
	for range 100 {
		l.Write([]byte(line))
	}
	if n := len(rec.all()); n != 0 {
		t.Fatalf("%d writes before the flush, want 0", n)
	}
	l.Flush()
	if w := rec.all(); len(w) != 1 || w[0] != strings.Repeat(line, 100) {
		t.Fatalf("after Flush: %d writes, want the 100 lines in one", len(w))
	}
	// A full buffer is written at once.
	for range BufferSize/len(line) + 1 {
		l.Write([]byte(line))
	}
	if w := rec.all(); len(w) != 2 || len(w[1]) < BufferSize {
		t.Fatalf("a full buffer: %d writes, want 2, the last of %d bytes or more", len(w), BufferSize)
	}
	l.Write([]byte(line))
	l.Flush()
	l.Flush()
	if w := rec.all(); len(w) != 3 || w[2] != line {
		t.Fatalf("two flushes: %d writes, want 3 (the rest, then nothing)", len(w))
	}
}

func TestWriterFlushesAfterTheDelay(t *testing.T) {
	rec := &writeRecorder{got: make(chan struct{}, 100)}
	l := New(rec, FlushDelay)
	l.Write([]byte("one\n"))
	l.Write([]byte("two\n"))
	select {
	case <-rec.got:
	case <-time.After(5 * time.Second):
		t.Fatal("the lines were never written")
	}
	if w := rec.all(); len(w) != 1 || w[0] != "one\ntwo\n" {
		t.Errorf("writes %q, want both lines in one", w)
	}
}
