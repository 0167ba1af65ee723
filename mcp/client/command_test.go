package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/mcp"
)

// helperEnv names the environment variable that makes the test binary a
// server for the client tests, in the mode it gives.
const helperEnv = "MCP_CLIENT_TEST_SERVER"

// helperCommand returns a command that runs the test binary as a server.
func helperCommand(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	if os.Getenv("GORACE") == "" {
		// Under the race detector a process sleeps a second at exit.
		cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
	}
	return cmd
}

// TestHelperServer is not a test: it is the server of helperCommand. In
// mode "serve" it serves the client test server on stdio; "exit" serves a
// tool "exit" that ends the process with status 3; "garbage" writes a line
// that is not JSON; "deaf" never reads its input nor exits.
func TestHelperServer(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("the server of the client tests")
	}
	s := newClientTestServer()
	switch mode {
	case "exit":
		mcp.AddTool(s, mcp.Tool{Name: "exit"}, func(ctx context.Context, _ struct{}) (string, error) {
			os.Exit(3)
			return "", nil
		})
	case "garbage":
		fmt.Println("hello, world")
	case "deaf":
		select {}
	}
	s.Serve(context.Background(), os.Stdin, os.Stdout)
	os.Exit(0)
}

// TestClientServerDies: a server that dies mid-call fails the call at once with a
// clear error, and the calls after it too.
func TestClientServerDies(t *testing.T) {
	c, err := Connect(context.Background(), Command(helperCommand("exit")), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), clientLongWait)
	defer cancel()
	_, err = c.CallTool(ctx, "exit", nil)
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("CallTool: got %v, want ErrClosed with the exit status", err)
	}
	if _, err := c.ListTools(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("ListTools after the server died: got %v, want ErrClosed", err)
	}
	if err := c.Close(); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("Close: got %v, want the exit status", err)
	}
}

// TestClientGarbage: a server that writes something other than JSON-RPC on
// stdout breaks the connection with an error quoting it.
func TestClientGarbage(t *testing.T) {
	_, err := Connect(context.Background(), Command(helperCommand("garbage")), nil)
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), `"hello, world\n"`) {
		t.Errorf("Connect: got %v, want the line quoted", err)
	}
}

// TestClientCloseKills: Close kills a server that does not exit when its input
// closes, after the close timeout.
func TestClientCloseKills(t *testing.T) {
	const timeout = 100 * time.Millisecond
	tr := Command(helperCommand("deaf"))
	tr.(*command).closeTimeout = timeout
	c, err := Connect(context.Background(), tr, &Options{Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if _, err := c.ListTools(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ListTools: got %v, want the deadline", err)
	}
	start := time.Now()
	err = c.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close: got %v, want the server killed", err)
	}
	if d := time.Since(start); d < timeout || d > clientLongWait {
		t.Errorf("Close took %v, want the close timeout, %v", d, timeout)
	}
}

// TestCommandAnswersServerRequests: a request from the server is answered,
// ping with its empty result and anything else with method not found, since
// the client offers no features.
func TestCommandAnswersServerRequests(t *testing.T) {
	tr := Command(exec.Command("unused")).(*command)
	r, w := io.Pipe()
	tr.stdin = w
	lines := bufio.NewReader(r)
	for method, want := range map[string]string{
		"ping":                   `{"jsonrpc":"2.0","id":"s1","result":{}}`,
		"sampling/createMessage": `{"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"Method not found","data":"sampling/createMessage"}}`,
	} {
		tr.answer(json.RawMessage(`"s1"`), method)
		line, err := lines.ReadString('\n')
		if err != nil || line != want+"\n" {
			t.Errorf("%s: answered %q, %v; want %s", method, line, err, want)
		}
	}
}
