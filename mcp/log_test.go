package mcp

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/mcp/internal/logbuf"
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

// never is a flush delay that does not elapse.
const never = time.Duration(math.MaxInt64)

// bufferLogTo makes s log as the default logger does, through a log
// buffer flushed delay after a line, into w instead of stderr.
func bufferLogTo(s *Server, w io.Writer, delay time.Duration) {
	s.logw = logbuf.New(w, delay)
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
