// Package chapterproc builds the guide's chapters with the go command and
// runs them as real processes, for the tests whose subject is a chapter
// built in a subprocess (internal/interop, deploy/nginx, cmd/mcpc, and the
// docs' browser modules), and makes Go's test cache see the sources of what
// it builds.
//
// The chapters are the directories of chapters/ ([List]). [Build] compiles
// some of them into a directory; [Binaries] compiles each on first use,
// from inside a test, for a package's tests to share.
//
// # The test cache
//
// go test keeps a package's passing result and reports "ok (cached)"
// instead of running it again while the test binary and its inputs are
// unchanged. The inputs it knows of are the files and environment variables
// the test process opened, stat'd or looked up while the tests ran, inside
// testing.M.Run (TestMain's code before it is not recorded). A chapter
// compiled by a go build subprocess is none of them: without more, a
// reworded message in a chapter, or in the mcp package it imports, leaves
// the tests that run the chapter "ok (cached)", though they would fail.
//
// So before it builds, [Build] calls [Record] on [ModuleSources]: the test
// process opens every source file of the chapter's packages that belong to
// this module (the chapter and mcp/..., not the standard library or other
// modules, which go.mod and go.sum pin), the directories that hold them,
// and go.mod and go.sum, and looks up the environment variables that change
// what go build makes. Build and Binaries must therefore be called from
// inside a test, never from TestMain.
//
// What go test then compares, as of Go 1.26 (cmd/go/internal/test's
// test.computeTestInputsID and test.hashOpen), is each recorded file's
// size, mode and modification time, not its contents; for a directory, the
// same of each of its entries, so a file added to or removed from a package
// is seen, and so is an edit to any file beside the sources (a _test.go
// file of the chapter, say); and each variable's value. A result is not
// cached at all when a file it opened was modified less than two seconds
// before the test ended. So every edit that saves a file runs the tests
// again, even one that restores the old text; an edit that keeps both the
// size and the modification time of a file (only a tool that sets the time
// back does that) is not seen. Files of other modules are not recorded: a
// new version of a dependency changes go.mod or go.sum, which are.
// TestCacheSeesChanges shows a chapter's test run again, and fail, after an
// edit to the chapter and after one to mcp/, in a copy of the module.
package chapterproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// HTTP is a chapter process serving Streamable HTTP.
type HTTP struct {
	// URL is the endpoint, as the chapter's startup line names it.
	URL string

	name   string
	cmd    *exec.Cmd
	exited chan error // receives the process's exit, once

	mu      sync.Mutex
	log     []string      // the lines logged after the startup line
	logged  chan struct{} // closed, and replaced, when a line comes or the log ends
	logEnd  bool          // the log has ended
	awaited int           // lines of log that AwaitLog has looked at and passed
}

// StartHTTP runs the chapter binary at path with -http addr and the other
// args, and waits for its startup line, whose last word is the endpoint's
// loopback URL. The chapter's later log lines are kept, for [HTTP.AwaitLog].
func StartHTTP(path, addr string, args ...string) (*HTTP, error) {
	name := filepath.Base(path) + " -http " + addr
	cmd := exec.Command(path, append([]string{"-http", addr}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	logs := bufio.NewReader(stderr)
	line, err := logs.ReadString('\n')
	fields := strings.Fields(line)
	if err != nil || len(fields) == 0 || !strings.HasPrefix(fields[len(fields)-1], "http://127.0.0.1:") {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("%s: startup line %q, %v; want the endpoint's loopback URL", name, line, err)
	}
	p := &HTTP{URL: fields[len(fields)-1], name: name, cmd: cmd, exited: make(chan error, 1), logged: make(chan struct{})}
	go func() {
		for {
			line, err := logs.ReadString('\n')
			if line != "" {
				p.addLog(strings.TrimSuffix(line, "\n"), false)
			}
			if err != nil {
				break
			}
		}
		p.addLog("", true)
		p.exited <- cmd.Wait()
	}()
	return p, nil
}

// addLog adds a line to the process's log, or ends it, and wakes AwaitLog.
func (p *HTTP) addLog(line string, end bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if end {
		p.logEnd = true
	} else {
		p.log = append(p.log, line)
	}
	close(p.logged)
	p.logged = make(chan struct{})
}

// AwaitLog waits until the process has logged a line holding text, after
// the lines an earlier call returned or passed over, and returns it; it
// fails when ctx ends first or the process's log ends without one. A test
// waits with it for what only the process can tell, such as a handler
// having started, instead of sleeping. The calls share one place in the
// log: a line that one call passes over is not seen by the next.
func (p *HTTP) AwaitLog(ctx context.Context, text string) (string, error) {
	for {
		p.mu.Lock()
		for ; p.awaited < len(p.log); p.awaited++ {
			if line := p.log[p.awaited]; strings.Contains(line, text) {
				p.awaited++
				p.mu.Unlock()
				return line, nil
			}
		}
		end, logged := p.logEnd, p.logged
		p.mu.Unlock()
		if end {
			return "", fmt.Errorf("%s: its log ended with no line holding %q", p.name, text)
		}
		select {
		case <-logged:
		case <-ctx.Done():
			return "", fmt.Errorf("%s: no log line holding %q: %w", p.name, text, context.Cause(ctx))
		}
	}
}

// Addr returns the endpoint's host:port.
func (p *HTTP) Addr() string {
	addr, _ := strings.CutPrefix(strings.TrimSuffix(p.URL, "/mcp"), "http://")
	return addr
}

// Stop sends the process SIGTERM and waits up to timeout for it to exit. It
// returns an error unless the process exits with status 0 in time; a
// process still running then is killed.
func (p *HTTP) Stop(timeout time.Duration) error {
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		if err != nil {
			return fmt.Errorf("%s after SIGTERM: %v, want exit status 0", p.name, err)
		}
		return nil
	case <-time.After(timeout):
		p.cmd.Process.Kill()
		<-p.exited
		return errors.New(p.name + " still running " + timeout.String() + " after SIGTERM")
	}
}
