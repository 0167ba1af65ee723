package callpath

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Module is the module being measured: its path and root directory, as
// go list -m sees them from the working directory.
type Module struct {
	Path, Dir string
}

// FindModule asks the go command for the main module.
func FindModule(ctx context.Context) (Module, error) {
	out, err := goCmd(ctx, "", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}")
	if err != nil {
		return Module{}, fmt.Errorf("finding the module (run callpath inside the guide's module): %v", err)
	}
	path, dir, ok := strings.Cut(strings.TrimSpace(out), "\t")
	if !ok || path == "" || dir == "" || strings.Contains(dir, "\n") {
		return Module{}, fmt.Errorf("go list -m printed %q, want one module's path and directory (is a go.work in use? set GOWORK=off)", out)
	}
	return Module{Path: path, Dir: dir}, nil
}

// goCmd runs the go command in dir and returns its stdout; its error
// carries the command line and stderr.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// build compiles the chapter at pkg (a package pattern relative to the
// module root, such as ./chapters/01-tool-errors) with set-mode coverage of
// every package of the module into dir, and returns the binary's path.
func build(ctx context.Context, m Module, pkg, dir string) (string, error) {
	bin := filepath.Join(dir, "server")
	_, err := goCmd(ctx, m.Dir, "build", "-cover", "-covermode=set", "-coverpkg="+m.Path+"/...", "-o", bin, "--", pkg)
	if err != nil {
		return "", fmt.Errorf("building %s with coverage: %v", pkg, err)
	}
	return bin, nil
}

// A session is one run of the server binary over stdio.
type session struct {
	Name   string // for messages: "empty", or the case's name
	Input  string // all of stdin, which then ends
	Stdout string
	Stderr string

	// CoverDir is the GOCOVERDIR of the run, under run's tmp.
	CoverDir string
}

// run starts bin with GOCOVERDIR set to a new directory under tmp, writes
// s.Input to its stdin and closes it, and waits for the process to exit, at
// most timeout. It returns the coverage profile in text form, read from
// that directory with go tool covdata textfmt. A process that does not exit
// with status 0, or writes no coverage data, is an error that names what
// was sent and what came back.
func (s *session) run(ctx context.Context, bin, tmp string, timeout time.Duration) (string, error) {
	covdir, err := os.MkdirTemp(tmp, "cover-"+s.Name+"-")
	if err != nil {
		return "", err
	}
	s.CoverDir = covdir
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(runCtx, bin)
	// A pipe, not /dev/null, for an empty input: the server prints a
	// hint for a person when stdin is a character device.
	cmd.Stdin = strings.NewReader(s.Input)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "GOCOVERDIR="+covdir)
	err = cmd.Run()
	s.Stdout, s.Stderr = stdout.String(), stderr.String()
	switch {
	case runCtx.Err() != nil && ctx.Err() == nil:
		return "", fmt.Errorf("session %s: the server was still running %v after its stdin ended; %s", s.Name, timeout, s.exchange())
	case err != nil:
		return "", fmt.Errorf("session %s: the server exited with %v, want status 0; %s", s.Name, err, s.exchange())
	}
	text := filepath.Join(tmp, "profile-"+filepath.Base(covdir)+".txt")
	if _, err := goCmd(ctx, "", "tool", "covdata", "textfmt", "-i", covdir, "-o", text); err != nil {
		return "", fmt.Errorf("session %s: reading its coverage data: %v", s.Name, err)
	}
	data, err := os.ReadFile(text)
	if err != nil {
		return "", err
	}
	if bytes.Count(data, []byte("\n")) < 2 {
		return "", fmt.Errorf("session %s: no coverage blocks in the server's coverage data (was it built with -cover?); %s", s.Name, s.exchange())
	}
	return string(data), nil
}

// exchange says what s sent and what came back, for error messages.
func (s *session) exchange() string {
	in := s.Input
	if in == "" {
		in = "nothing (stdin closed at once)\n"
	}
	out := s.Stdout
	if out == "" {
		out = "nothing\n"
	}
	msg := "sent:\n" + in + "stdout:\n" + out
	if s.Stderr != "" {
		msg += "stderr:\n" + s.Stderr
	}
	return strings.TrimSuffix(msg, "\n")
}
