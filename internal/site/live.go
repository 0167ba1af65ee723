package site

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpbookshop/guide/internal/lockstep"
)

// Runner runs transcripts against the chapters' real servers: it builds each
// chapter's main once with go build, then starts a fresh process for every
// run and sends it the requests in lock step ([lockstep.Run]), as the
// testscripts do.
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

// Run sends t's requests to a fresh process of its chapter in lock step,
// as the testscripts do, and returns the lines it wrote, in order, without
// their newlines. Its log (stderr) is discarded.
func (r *Runner) Run(ctx context.Context, t *Transcript) ([]string, error) {
	if t.Chapter == "" {
		return nil, fmt.Errorf("%s is not a chapter's transcript", t.Key())
	}
	bin, err := r.binary(ctx, t.Chapter)
	if err != nil {
		return nil, err
	}
	var replies []string
	err = lockstep.Run(ctx, exec.Command(bin), t.Requests, lockstep.ReplyTimeout, func(line []byte) {
		replies = append(replies, strings.TrimSuffix(string(line), "\n"))
	})
	if err != nil {
		return nil, err
	}
	return replies, nil
}
