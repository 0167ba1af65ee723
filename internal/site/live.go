package site

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ReplyTimeout bounds how long [Runner.Run] waits for one reply, and for the
// server to exit once its input is closed.
const ReplyTimeout = 10 * time.Second

// maxReplyBytes bounds one reply line a [Runner] reads.
const maxReplyBytes = 64 << 20

// Runner runs transcripts against the chapters' real servers: it builds each
// chapter's main once with go build, then starts a fresh process for every
// run and sends it the requests one at a time, each waiting for its reply, as
// the testscripts do.
type Runner struct {
	// Dir is the repository on disk, where go build runs.
	Dir string

	mu   sync.Mutex
	tmp  string            // where the binaries go
	bins map[string]string // chapter directory → binary
}

// binary returns the chapter's program, building it the first time.
func (r *Runner) binary(ctx context.Context, chapter string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if bin, ok := r.bins[chapter]; ok {
		return bin, nil
	}
	if r.tmp == "" {
		dir, err := os.MkdirTemp("", "guide-chapters-")
		if err != nil {
			return "", err
		}
		r.tmp, r.bins = dir, make(map[string]string)
	}
	bin := filepath.Join(r.tmp, filepath.Base(chapter))
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./"+chapter)
	cmd.Dir = r.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./%s: %v\n%s", chapter, err, out)
	}
	r.bins[chapter] = bin
	return bin, nil
}

// Close removes the binaries the runner built.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tmp == "" {
		return nil
	}
	err := os.RemoveAll(r.tmp)
	r.tmp, r.bins = "", nil
	return err
}

// Run sends t's requests to a fresh process of its chapter and returns the
// lines it replied, in order. Its log (stderr) is discarded.
func (r *Runner) Run(ctx context.Context, t *Transcript) ([]string, error) {
	if t.Chapter == "" {
		return nil, fmt.Errorf("%s is not a chapter's transcript", t.Key())
	}
	bin, err := r.binary(ctx, t.Chapter)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer cmd.Wait()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, maxReplyBytes)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var replies []string
	next := func() (bool, error) {
		select {
		case l, ok := <-lines:
			if ok {
				replies = append(replies, l)
			}
			return ok, nil
		case <-time.After(ReplyTimeout):
			return false, fmt.Errorf("no reply within %v", ReplyTimeout)
		}
	}
	for _, req := range t.Requests {
		if _, err := io.WriteString(in, req+"\n"); err != nil {
			return nil, err
		}
		if ExpectsReply([]byte(req)) {
			if ok, err := next(); err != nil || !ok {
				return nil, fmt.Errorf("request %s: %v", strings.TrimSpace(req), orClosed(err))
			}
		}
	}
	in.Close()
	for {
		ok, err := next()
		if err != nil {
			return nil, fmt.Errorf("the server did not exit after its input closed: %v", err)
		}
		if !ok {
			return replies, nil
		}
	}
}

func orClosed(err error) error {
	if err == nil {
		return fmt.Errorf("the server closed its output")
	}
	return err
}
