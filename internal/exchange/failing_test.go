package exchange

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func failing(t *testing.T, mode string, requests ...string) (string, []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	outcome, err := runFailing([]string{os.Args[0], fakeArg, mode}, requests, t.TempDir(), &stdout, &stderr)
	if err != nil {
		t.Fatalf("runFailing: %v", err)
	}
	return stdout.String(), outcome
}

func TestRunFailingRecordsWhatRunFailsOn(t *testing.T) {
	for _, tt := range []struct {
		mode, stdout string
		outcome      []string
	}{
		{"quit", "", []string{
			"request line 1: no reply: the server closed its stdout",
			"the server exited with status 0",
		}},
		{"fail", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", []string{
			"the server exited with status 1",
		}},
		{"ok", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", nil},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			stdout, outcome := failing(t, tt.mode, request)
			if stdout != tt.stdout {
				t.Errorf("stdout = %q, want %q", stdout, tt.stdout)
			}
			if strings.Join(outcome, "\n") != strings.Join(tt.outcome, "\n") {
				t.Errorf("outcome = %q, want %q", outcome, tt.outcome)
			}
		})
	}
}

// TestRunFailingGoesOnAfterATimeout: a request the server never answers is
// recorded, the next line is sent and answered, and a server that never
// exits is killed.
func TestRunFailingGoesOnAfterATimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits FailingReplyTimeout twice")
	}
	stdout, outcome := failing(t, "hang", `{"jsonrpc":"2.0","id":1,"method":"hang"}`, request)
	if want := `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	want := []string{
		"request line 1: no reply within 2s",
		"the server did not exit within 2s of its input closing, and was killed",
	}
	if strings.Join(outcome, "\n") != strings.Join(want, "\n") {
		t.Errorf("outcome = %q, want %q", outcome, want)
	}
}

func TestRunFailingRejectsGarbage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	_, err := runFailing([]string{os.Args[0], fakeArg, "garbage"}, []string{request}, t.TempDir(), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "not a JSON-RPC message") {
		t.Errorf("err = %v, want one saying the line is not a JSON-RPC message", err)
	}
}
