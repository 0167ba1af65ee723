package check

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPeers checks the peers' Bookshops (../shared/bench: the chapters
// written with the official Go SDK and with mcp-go) over stdio, and their
// chapter 01 over Streamable HTTP in each of its modes, as a new user would
// check a server no one here wrote: each is reached in the eras it speaks,
// every verdict is complete, and a second check gives the same verdicts.
// The verdicts are logged, for the guide's page.
func TestPeers(t *testing.T) {
	if os.Getenv("GUIDE_LONG") == "" {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	bench := ""
	for _, dir := range []string{filepath.Join(root, "..", "shared", "bench"), filepath.Join(root, "..", "..", "shared", "bench")} {
		if _, err := os.Stat(dir); err == nil && bench == "" {
			bench = dir // beside the module, or beside the worktrees of its checkout
		}
	}
	if bench == "" {
		t.Skip("the peers are not here: no shared/bench beside the module's directory or its parent")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the peers:", err)
	}
	bin := t.TempDir()
	build := func(peer, main string) string {
		out := filepath.Join(bin, peer+"-"+main)
		cmd := exec.Command("go", "build", "-o", out, "./"+main)
		cmd.Dir = filepath.Join(bench, peer)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("building %s/%s: %v\n%s", peer, main, err, b)
			return ""
		}
		return out
	}
	for _, peer := range []string{"ref-gosdk", "ref-mcpgo"} {
		for _, main := range []string{"01-tool-errors", "02-protocol-errors", "03-resources"} {
			if out := build(peer, main); out != "" {
				checkPeer(t, peer+"/"+main, &Config{Command: []string{out}}, 2)
			}
		}
	}
	for _, mode := range []struct {
		peer string
		args []string
		eras int // how many eras the mode serves, as the peer's README says
	}{
		{"ref-gosdk-http", nil, 1},                    // sessions only: 2026-07-28 is refused
		{"ref-gosdk-http", []string{"-stateless"}, 2}, // both, without sessions
		{"ref-mcpgo-http", nil, 2},                    // 2026-07-28 statelessly beside sessions
	} {
		out := build(mode.peer, "01-tool-errors")
		if out == "" {
			continue
		}
		name := strings.Join(append([]string{mode.peer + "/01-tool-errors -http"}, mode.args...), " ")
		url, err := servePeer(t, out, mode.args...)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkPeer(t, name, &Config{URL: url}, mode.eras)
	}
}

// checkPeer checks the server cfg names twice: it must speak eras eras,
// give complete verdicts, and the same ones both times. The verdicts other
// than as the guide are logged.
func checkPeer(t *testing.T, name string, cfg *Config, eras int) {
	t.Helper()
	var runs [2][]Kind
	for i := range runs {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		r, err := Run(ctx, cfg)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		if len(r.Eras) != eras {
			t.Errorf("%s: %d eras, want %d", name, len(r.Eras), eras)
		}
		for _, e := range r.Eras {
			for _, v := range e.Verdicts {
				if v.Kind != NotChecked && v.Lesson != LessonInternals && (v.Request == "" || v.Reply == "") ||
					(v.Kind == AgainstMust || v.Kind == AgainstShould) && v.Quote == nil {
					t.Errorf("%s: an incomplete verdict: %+v", name, v)
				}
				runs[i] = append(runs[i], v.Kind)
				if i == 0 && v.Kind != AsGuide {
					t.Logf("%-34s %s over %s %-30s %s · %s: %s", name, e.Version, e.Transport, v.Kind, v.Lesson, v.Target, v.Detail)
				}
			}
		}
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Errorf("%s: two checks disagree:\n%v\n%v", name, runs[0], runs[1])
	}
}

// servePeer starts a peer's HTTP main on a free loopback port and returns
// its endpoint, once it accepts connections; the test stops it. A peer
// logs its address before it listens, so the log line is followed by
// dials until one is accepted, each answered at once (refused or
// accepted), within a bound.
func servePeer(t *testing.T, path string, args ...string) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(path, append([]string{"-http", addr}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	logged, ended := make(chan bool, 1), make(chan struct{})
	go func() {
		defer close(ended) // its stderr closed: it exited
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), "serves Streamable HTTP at http://"+addr) {
				found = true
				logged <- true
			}
		}
		if !found {
			logged <- false
		}
		io.Copy(io.Discard, stderr)
	}()
	deadline := time.Now().Add(30 * time.Second)
	select {
	case ok := <-logged:
		if !ok {
			return "", fmt.Errorf("%s ended without logging its address", path)
		}
	case <-time.After(time.Until(deadline)):
		return "", fmt.Errorf("%s did not log its address within 30s", path)
	}
	for {
		c, err := net.DialTimeout("tcp", addr, time.Until(deadline))
		if err == nil {
			c.Close()
			return "http://" + addr + "/mcp", nil
		}
		select {
		case <-ended:
			return "", fmt.Errorf("%s logged %s, then exited: %v", path, addr, err)
		default:
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("%s logged %s but does not accept on it: %v", path, addr, err)
		}
		runtime.Gosched()
	}
}
