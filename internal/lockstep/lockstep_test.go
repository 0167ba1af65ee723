package lockstep

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fakeEnv names the behaviour the test binary plays when re-executed as a
// fake server.
const fakeEnv = "LOCKSTEP_FAKE_SERVER"

// shortTimeout bounds the wait for a reply that never comes.
const shortTimeout = 100 * time.Millisecond

// TestMain turns the test binary into a fake server when fakeEnv is set.
func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeServer(mode))
	}
	os.Exit(m.Run())
}

// fakeServer answers every line that has an id with a result echoing the
// line number, as mode says, and returns its exit status. "chatty" sends a
// notification before each reply and one more at the end of its input;
// "mute" never replies; "cancellable" never replies to a "wait" request,
// as a server whose client cancels it; "fail" exits with status 1.
func fakeServer(mode string) int {
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() {
		n++
		if !strings.Contains(sc.Text(), `"id"`) || mode == "mute" ||
			mode == "cancellable" && strings.Contains(sc.Text(), `"method":"wait"`) {
			continue
		}
		if mode == "chatty" {
			fmt.Printf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d}}`+"\n", n)
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%d,"result":{}}`+"\n", n)
	}
	if mode == "chatty" {
		fmt.Println(`{"jsonrpc":"2.0","method":"notifications/message","params":{"bye":true}}`)
	}
	if mode == "fail" {
		return 1
	}
	return 0
}

func run(ctx context.Context, mode string, timeout time.Duration, lines ...string) ([]string, error) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fakeEnv+"="+mode)
	var got []string
	err := Run(ctx, cmd, lines, timeout, func(line []byte) { got = append(got, string(line)) })
	return got, err
}

func TestRunWaitsForTheResponse(t *testing.T) {
	got, err := run(context.Background(), "chatty", ReplyTimeout, request, notification, "", request)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":3}}` + "\n",
		`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"bye":true}}` + "\n",
	}
	if strings.Join(got, "") != strings.Join(want, "") {
		t.Errorf("lines passed on:\n%s\nwant:\n%s", strings.Join(got, ""), strings.Join(want, ""))
	}
}

// The lines of an exchange that cancels its first request.
var cancelling = []string{
	`{"jsonrpc":"2.0","id":1,"method":"wait"}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
}

func TestRunOwesNoReplyToACancelledRequest(t *testing.T) {
	got, err := run(context.Background(), "cancellable", ReplyTimeout, cancelling...)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"; strings.Join(got, "") != want {
		t.Errorf("lines passed on: %q, want only %q", got, want)
	}
}

// A server that answers a request it was told is cancelled shows it in the
// lines passed on, where a pinned exchange catches it.
func TestRunPassesOnTheReplyToACancelledRequest(t *testing.T) {
	got, err := run(context.Background(), "ok", ReplyTimeout, cancelling...)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"
	if strings.Join(got, "") != want {
		t.Errorf("lines passed on: %q, want %q", got, want)
	}
}

func TestRunFails(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		mode    string
		timeout time.Duration
		want    string
		exit    bool
	}{
		{"reply timeout", context.Background(), "mute", shortTimeout, "request line 1: no reply within " + shortTimeout.String() + " to " + request, false},
		{"context", cancelled, "mute", 0, "request line 1: no reply to " + request + ": context canceled", false},
		{"exit status", context.Background(), "fail", ReplyTimeout, "the server failed: exit status 1", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(tt.ctx, tt.mode, tt.timeout, request)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			var exit *ExitError
			if errors.As(err, &exit) != tt.exit {
				t.Errorf("err is an *ExitError: %v, want %v", !tt.exit, tt.exit)
			}
		})
	}
}
