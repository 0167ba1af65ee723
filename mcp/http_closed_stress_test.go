package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// closeStressTries is how many half-closed calls TestHTTPHalfCloseStress
// makes in each era.
const closeStressTries = 250

// TestHTTPHalfCloseStress makes many calls that the client half-closes at
// once after sending them, in each era, with every CPU kept busy by
// spinning processes (three per CPU), so that the server often sees the
// end of the input before the handler returns. The handler, echo, returns
// a result: every call must get it. It reports how many replies were
// written after the server saw the close (the race the tries are for).
func TestHTTPHalfCloseStress(t *testing.T) {
	if os.Getenv("GUIDE_LONG") == "" {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	log, opts := newLogWatch()
	s := NewServer("stress", "1.0.0", opts)
	type echoArgs struct {
		Text string `json:"text"`
	}
	AddTool(s, Tool{Name: "echo"}, func(ctx context.Context, a echoArgs) (string, error) { return a.Text, nil })
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{MaxOrphans: closeStressTries}))
	defer ts.Close()

	busy := busyCPUs(t, 3*runtime.NumCPU())
	defer busy()

	sid := httpInitSession(t, ts.URL)
	for _, era := range []struct {
		name string
		hdr  map[string]string
		body string
	}{
		{"legacy", map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-06-18"}, httpLegacyCall},
		{"modern", mcptest.Headers("tools/call", "echo"), httpCall},
	} {
		before := strings.Count(log.String(), "closed its side before the reply")
		lost := 0
		for i := range closeStressTries {
			conn := mcptest.Dial(t, newHTTPRequest(t, context.Background(), http.MethodPost, ts.URL, era.body, era.hdr))
			closeConn(t, conn, true)
			status, body := readReply(t, conn)
			conn.Close()
			if status != http.StatusOK || !strings.Contains(body, `"text":"hi"`) {
				lost++
				t.Errorf("%s try %d: got %d %q, want the result", era.name, i, status, body)
			}
		}
		seen := strings.Count(log.String(), "closed its side before the reply") - before
		t.Logf("%s: %d half-closed calls, %d answered, %d of them after the server saw the close; %d processes spinning on %d CPUs",
			era.name, closeStressTries, closeStressTries-lost, seen, 3*runtime.NumCPU(), runtime.NumCPU())
	}
}

// busyCPUs starts n processes, this test binary run as
// TestBusyLoopProcess, that spin until the returned function is called,
// which ends them: their input closes, as it does if the test dies.
func busyCPUs(t *testing.T, n int) (stop func()) {
	var cmds []*exec.Cmd
	var inputs []io.Closer
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBusyLoopProcess$")
		cmd.Env = append(os.Environ(), "GUIDE_BUSY_LOOP=1")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, inputs = append(cmds, cmd), append(inputs, in)
	}
	return func() {
		for i, cmd := range cmds {
			inputs[i].Close()
			cmd.Wait()
		}
	}
}

// TestBusyLoopProcess is the process busyCPUs starts: it spins until its
// input closes. Run otherwise, it does nothing.
func TestBusyLoopProcess(t *testing.T) {
	if os.Getenv("GUIDE_BUSY_LOOP") == "" {
		return
	}
	var done atomic.Bool
	go func() {
		io.Copy(io.Discard, os.Stdin)
		done.Store(true)
	}()
	for !done.Load() {
	}
}
