package exchange

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// fakeArg, as the test binary's first argument, makes it a fake server
// that plays the behaviour its second argument names.
const fakeArg = "fake-server"

// TestMain turns the test binary into a fake server when its arguments
// say so: on stdio, or with -http as the abort command runs a server.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == fakeArg {
		os.Exit(fakeServer(os.Args[2]))
	}
	if len(os.Args) == 5 && os.Args[1] == "-http" && os.Args[3] == fakeArg {
		os.Exit(fakeHTTPServer(os.Args[2], os.Args[4]))
	}
	os.Exit(m.Run())
}

// fakeServer answers every line that has an id with a result echoing the
// line number, misbehaving as mode says, and returns its exit status. In
// mode "log" it also logs each reply with slog, as the chapters do.
func fakeServer(mode string) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() {
		n++
		if !strings.Contains(sc.Text(), `"id"`) {
			continue
		}
		switch {
		case mode == "garbage":
			fmt.Println("listening on stdio")
		case mode == "quit":
			return 0
		case mode == "hang" && strings.Contains(sc.Text(), `"method":"hang"`):
			// no reply; and, below, no exit once stdin closes
		default:
			if mode == "log" {
				log.Info("replying", "line", n, "stack", string(debug.Stack()))
			}
			fmt.Printf(`{"jsonrpc":"2.0","id":%d,"result":{}}`+"\n", n)
		}
	}
	if mode == "hang" {
		time.Sleep(time.Hour) // a server that never exits; the test kills it
	}
	if mode != "log" {
		fmt.Fprintln(os.Stderr, "bye")
	}
	if mode == "fail" {
		return 1
	}
	return 0
}

const (
	request      = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	notification = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func exchange(t *testing.T, mode string, requests ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := Replay(context.Background(), []string{os.Args[0], fakeArg, mode}, requests, t.TempDir(), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

func TestRunPrintsEachReply(t *testing.T) {
	stdout, stderr, err := exchange(t, "ok", request, notification, "", request)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"
	if stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	if stderr != "bye\n" {
		t.Errorf("stderr = %q, want the server's stderr", stderr)
	}
}

func TestRunFails(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"garbage", "not a JSON-RPC message"},
		{"quit", "closed stdout without replying"},
		{"fail", "the server failed: exit status 1"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			_, _, err := exchange(t, tt.mode, request)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}
