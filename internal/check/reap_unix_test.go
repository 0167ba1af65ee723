//go:build unix

package check

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStopReapsTheGroup: a check stopped midway (Ctrl-C, -timeout) stops
// the server and what it started, at once. The FIFO that the server and
// its child hold open reaches its end only once both are gone.
func TestStopReapsTheGroup(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// The wrong server hangs on an unknown method: the check waits.
		_, err := Run(ctx, &Config{Command: []string{os.Args[0], "forking-server", fifo}, Wait: time.Hour})
		done <- err
	}()
	r, err := os.Open(fifo) // blocks until the server opens it
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	line := make([]byte, len("started\n"))
	if _, err := io.ReadFull(r, line); err != nil {
		t.Fatal(err)
	}
	cancel()
	ended := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(r)
		ended <- err
	}()
	select {
	case err := <-ended:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server or its child still runs 30s after the check was stopped")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want the context's cancellation", err)
	}
}
