package check

import (
	"bytes"
	"strings"
	"sync"
)

// tail keeps the last lines written to it, at most tailLines of them and
// tailBytes in all: the server's stderr, for the verdict on a server that
// died.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const (
	tailLines = 5
	tailBytes = 4 << 10
)

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

// lines returns the last lines kept, joined by " | ".
func (t *tail) lines() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimSpace(t.buf)
	if len(b) > tailBytes {
		b = b[len(b)-tailBytes:]
	}
	ls := strings.Split(string(b), "\n")
	if len(ls) > tailLines {
		ls = ls[len(ls)-tailLines:]
	}
	for i, l := range ls {
		ls[i] = shorten(strings.TrimSpace(l), 160)
	}
	return strings.Join(ls, " | ")
}
