package mcp

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeCounter records each write it gets.
type writeCounter struct {
	mu     sync.Mutex
	writes []string
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

// bufferLogTo makes s log as the default logger does, through a log
// buffer flushed delay after a line, into w instead of stderr.
func bufferLogTo(s *Server, w io.Writer, delay time.Duration) {
	s.logw = newLogWriter(w, delay)
	s.log = slog.New(slog.NewTextHandler(s.logw, nil))
}

func TestServeFlushesTheDefaultLog(t *testing.T) {
	s := NewServer("t", "1", nil)
	rec := new(writeCounter)
	bufferLogTo(s, rec, never)
	in := strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"nope"}`+"\n", 3)
	var out bytes.Buffer
	if err := s.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if w := rec.writes; len(w) != 1 || strings.Count(w[0], "protocol error") != 3 {
		t.Errorf("log after Serve: %q, want the 3 lines in one write", w)
	}
}

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

func TestLogWriterGathersLines(t *testing.T) {
	rec := &writeRecorder{got: make(chan struct{}, 100)}
	l := newLogWriter(rec, never) // only Flush and a full buffer write
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
	for range logWriterSize/len(line) + 1 {
		l.Write([]byte(line))
	}
	if w := rec.all(); len(w) != 2 || len(w[1]) < logWriterSize {
		t.Fatalf("a full buffer: %d writes, want 2, the last of %d bytes or more", len(w), logWriterSize)
	}
	l.Write([]byte(line))
	l.Flush()
	l.Flush()
	if w := rec.all(); len(w) != 3 || w[2] != line {
		t.Fatalf("two flushes: %d writes, want 3 (the rest, then nothing)", len(w))
	}
}

func TestLogWriterFlushesAfterTheDelay(t *testing.T) {
	rec := &writeRecorder{got: make(chan struct{}, 100)}
	l := newLogWriter(rec, logFlushDelay)
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
