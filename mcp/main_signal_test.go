package mcp

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// mainEnv names the environment variable that makes the test binary run
// [Main] (see TestHelperMain).
const mainEnv = "MCP_TEST_MAIN"

// TestHelperMain is not a test: with mainEnv set, it runs Main with a tool
// "slow" that says on stderr that it started, then answers once the
// process has had SIGTERM, so that it is running when the signal comes
// (or after signalWait, should the signal never come).
func TestHelperMain(t *testing.T) {
	if os.Getenv(mainEnv) == "" {
		t.Skip("the process of the signal tests")
	}
	s := NewServer("signals", "1.0.0", nil)
	AddTool(s, Tool{Name: "slow"}, func(ctx context.Context, _ struct{}) (string, error) {
		sigterm := make(chan os.Signal, 1)
		signal.Notify(sigterm, syscall.SIGTERM) // beside Main's own
		defer signal.Stop(sigterm)
		os.Stderr.WriteString("slow: started\n")
		select {
		case <-sigterm:
		case <-time.After(signalWait):
		}
		return "done", nil
	})
	os.Args = os.Args[:1]
	Main(s)
	os.Exit(0)
}

// signalWait bounds how long a test waits for the process to answer or exit.
const signalWait = 10 * time.Second

// startMain runs Main in a process of its own whose stdin stays open (the
// test holds the pipe's writing end) and returns it with its stdin, its
// stdout and a reader of its stderr.
func startMain(t *testing.T) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bufio.Reader) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
	cmd.Env = append(os.Environ(), mainEnv+"=1", "GORACE=atexit_sleep_ms=0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
	})
	return cmd, stdin, bufio.NewReader(stdout), bufio.NewReader(stderr)
}

// waitExit reads cmd's stdout to its end and waits for cmd to exit, and
// fails unless it exits with status 0 within signalWait. It returns what
// was left to read on stdout.
func waitExit(t *testing.T, cmd *exec.Cmd, stdout io.Reader) string {
	t.Helper()
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stdout)
		rest <- string(b)
	}()
	select {
	case out := <-rest:
		if err := cmd.Wait(); err != nil {
			t.Errorf("after the signal: %v, want exit status 0", err)
		}
		return out
	case <-time.After(signalWait):
		t.Fatalf("still running %v after the signal, its stdin open", signalWait)
		return ""
	}
}

// TestMainSignalIdle: an idle stdio server whose stdin stays open exits
// with status 0 on SIGTERM or SIGINT.
func TestMainSignalIdle(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, stdin, stdout, _ := startMain(t)
			// One exchange first, so the signal finds the server reading.
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
			if line, err := stdout.ReadString('\n'); err != nil || !strings.Contains(line, `"result":{}`) {
				t.Fatalf("ping: %q, %v", line, err)
			}
			cmd.Process.Signal(sig)
			if rest := waitExit(t, cmd, stdout); rest != "" {
				t.Errorf("stdout after the signal: %q, want nothing", rest)
			}
		})
	}
}

// TestMainSignalDrains: on SIGTERM the request running is answered before
// the server exits with status 0, although stdin stays open.
func TestMainSignalDrains(t *testing.T) {
	cmd, stdin, stdout, stderr := startMain(t)
	io.WriteString(stdin, mcptest.Request("7", "tools/call", `"name":"slow"`)+"\n")
	if line, err := stderr.ReadString('\n'); err != nil || line != "slow: started\n" {
		t.Fatalf("stderr: %q, %v; want the tool to start", line, err)
	}
	go io.Copy(io.Discard, stderr)
	cmd.Process.Signal(syscall.SIGTERM)
	got := waitExit(t, cmd, stdout)
	if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":7,"result":`) || !strings.Contains(got, `"text":"done"`) || strings.Count(got, "\n") != 1 {
		t.Errorf("stdout after SIGTERM: %q, want the slow call's result, one line", got)
	}
}
