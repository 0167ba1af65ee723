// Package chapterproc builds the guide's chapters and runs them as real
// processes serving Streamable HTTP, for the tests that talk to a chapter
// across a socket (internal/interop, deploy/nginx).
package chapterproc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// RunTests is a TestMain's body: it builds the named chapters, sets *dir
// to the directory of their binaries, runs the tests and removes the
// binaries, returning the code to exit with.
func RunTests(m *testing.M, dir *string, chapters ...string) int {
	d, remove, err := Build(chapters...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer remove()
	*dir = d
	return m.Run()
}

// Build compiles the named chapters (directories of chapters/, such as
// "01-tool-errors") into a new temporary directory, one binary each named
// after its directory, and returns the directory and a function that
// removes it.
func Build(chapters ...string) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "chapters")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, ch := range chapters {
		args = append(args, "github.com/mcpbookshop/guide/chapters/"+ch)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		remove()
		return "", nil, fmt.Errorf("building the chapters: %v\n%s", err, out)
	}
	return dir, remove, nil
}

// HTTP is a chapter process serving Streamable HTTP.
type HTTP struct {
	// URL is the endpoint, as the chapter's startup line names it.
	URL string

	name   string
	cmd    *exec.Cmd
	exited chan error // receives the process's exit, once
}

// StartHTTP runs the chapter binary at path with -http addr and the other
// args, and waits for its startup line, whose last word is the endpoint's
// loopback URL. The chapter's later log lines are read and dropped.
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
	p := &HTTP{URL: fields[len(fields)-1], name: name, cmd: cmd, exited: make(chan error, 1)}
	go func() {
		io.Copy(io.Discard, logs)
		p.exited <- cmd.Wait()
	}()
	return p, nil
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
