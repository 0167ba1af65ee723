package check

import (
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/check/checktest"
)

// TestMain runs the test binary as the wrong server when asked to, so that
// the tests can start it as a command.
func TestMain(m *testing.M) {
	switch {
	case len(os.Args) > 1 && os.Args[1] == "wrong-server":
		checktest.WrongServer()
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "silent-legacy-server":
		checktest.SilentLegacyServer()
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "late-replier":
		checktest.LateReplier()
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "no-tools-server":
		checktest.NoTools()
		os.Exit(0)
	case len(os.Args) > 2 && os.Args[1] == "forking-server":
		forkingServer(os.Args[2])
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "sleeper":
		time.Sleep(time.Hour)
	}
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}

// verdictKey names a verdict in the table of those the wrong server
// deserves.
func verdictKey(v Verdict) string { return v.Lesson + " · " + v.Target }

// TestWrongServer checks that the server built to be wrong gets exactly the
// verdicts it deserves, each within the check's bounds: over stdio and over
// Streamable HTTP, in both eras it speaks.
func TestWrongServer(t *testing.T) {
	// The verdicts every transport and era share.
	common := map[string]Kind{
		"unknown-tool · mcpc-check-no-such-tool":                     Allowed,     // a tool error
		"validation · tool panicky: q missing":                       AgainstMust, // a tool error, but a panic's: the handler ran
		"internals · validation · tool panicky: q missing":           Leaks,       // ... and it leaks a Go trace
		"internals · validation · tool panicky: q of the wrong type": Leaks,
		"internals · validation · tool lookup: id missing":           Leaks, // SQL and a driver error
		"internals · validation · tool lookup: id of the wrong type": Leaks,
		"validation · tool panicky: q of the wrong type":             AgainstMust,   //
		"validation · tool lookup: id missing":                       AgainstShould, // -32603, not a tool error
		"validation · tool lookup: id of the wrong type":             AgainstShould,
		"validation · tool echo: text missing":                       AsGuide, // the echo of "server/main.go:12" is not a leak
		"validation · tool echo: text of the wrong type":             AsGuide,
		"validation · tool echo: at missing":                         AsGuide,
		"malformed-line · not JSON":                                  AgainstMust, // it crashed, or dropped the connection
		"unknown-method · mcpc-check/no-such-method":                 AgainstMust, // it hung
		`invalid-request · "jsonrpc": "1.0"`:                         Allowed,     // served anyway
		"invalid-request · an id that is an object":                  AgainstMust, // echoed the id
		"batch · two tools/list":                                     NotChecked,  // a reply past the bound (over stdio, never ended)
		"cancellation · tools/list":                                  AgainstMust, // silent after it
		"cancellation · a request in flight":                         NotChecked,  // a list is answered at once
	}
	// What each transport and era adds, or judges otherwise.
	differs := map[string]map[string]Kind{
		"stdio 2026-07-28": {
			"stdout · invalid-request · an id that is an object": AgainstMust, // chatter on stdout
			"unsupported-version · 1900-01-01":                   AgainstMust, // a flood, stopped at 32 MiB
			"resource-not-found · template books://{title}":      AgainstMust, // empty contents
			"resource-not-found · a URI that matches nothing":    AgainstMust, // -32002
		},
		"stdio 2025-11-25": {
			"stdout · invalid-request · an id that is an object": AgainstMust,
			"unsupported-version · initialize 1900-01-01":        AgainstMust,   // it agreed to 1900-01-01
			"resource-not-found · template books://{title}":      AgainstShould, // empty contents, in a session
			"resource-not-found · a URI that matches nothing":    Allowed,       // -32002, in a session
		},
		"HTTP 2026-07-28": {
			"unsupported-version · 1900-01-01":                NotChecked, // a flood: the body is longer than the check reads
			"resource-not-found · template books://{title}":   AgainstMust,
			"resource-not-found · a URI that matches nothing": AgainstMust,
			"cancellation · tools/list":                       AsGuide, // a closed stream of an answered request: the next one is answered
		},
		"HTTP 2025-11-25": {
			"unsupported-version · initialize 1900-01-01":     AgainstMust,
			"resource-not-found · template books://{title}":   AgainstShould,
			"resource-not-found · a URI that matches nothing": Allowed,
		},
	}
	srv := httptest.NewServer(checktest.WrongHTTP())
	t.Cleanup(srv.Close)
	for _, cfg := range []*Config{{Command: []string{os.Args[0], "wrong-server"}}, {URL: srv.URL}} {
		transport := "stdio"
		if cfg.URL != "" {
			transport = "HTTP"
		}
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			// A bound far past the seconds it takes: about 17 s over stdio
			// under -race on a busy machine, mostly the fixture's bounded waits.
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cfg.Wait = 2 * time.Second
			r, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Eras) != 2 {
				t.Errorf("got %d eras, want 2 (the wrong server speaks 2026-07-28 and 2025-11-25)", len(r.Eras))
			}
			for _, e := range r.Eras {
				want := maps.Clone(common)
				maps.Copy(want, differs[e.Transport+" "+e.Version])
				got := map[string]Kind{}
				for _, v := range e.Verdicts {
					if verdictKey(v) == "batch · two tools/list" && !strings.Contains(v.Reply, `over 1 MiB, starting {"error":{"code":-32600,"message":"xxx`) {
						t.Errorf("%s: batch: the reply shows as %q, not its start", e.Version, v.Reply)
					}
					if k, seen := got[verdictKey(v)]; seen && k != v.Kind {
						t.Errorf("%s: %s: two verdicts, %v and %v", e.Version, verdictKey(v), k, v.Kind)
					}
					got[verdictKey(v)] = max(got[verdictKey(v)], v.Kind)
				}
				for k, w := range want {
					if got[k] != w {
						t.Errorf("%s: %s: got %v, want %v", e.Version, k, got[k], w)
					}
				}
				for k, g := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: %s: an unexpected verdict, %v", e.Version, k, g)
					}
				}
			}
			if !r.Fails() {
				t.Error("the report does not fail")
			}
			if t.Failed() {
				r.WriteText(testWriter{t})
			}
		})
	}
}

// TestNoTools: a server with no tools gets the verdicts the same answers
// get from a server with tools. Its invalid requests ask for a list it
// offers (resources/list), which it serves as any request, as the wrong
// server serves tools/list; a tools/list would have met its -32601, which
// echoes the object id and is judged against a MUST.
func TestNoTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r, err := Run(ctx, &Config{Command: []string{os.Args[0], "no-tools-server"}, Wait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, e := range r.Eras {
		for _, v := range e.Verdicts {
			if v.Kind.Fails() {
				t.Errorf("%s: %v (%s)", verdictKey(v), v.Kind, v.Detail)
			}
			if verdictKey(v) == "invalid-request · an id that is an object" {
				seen = true
				if v.Kind != Allowed || !strings.HasPrefix(v.Request, `{"id":{"mcpc":"check"},"jsonrpc":"2.0","method":"resources/list"`) {
					t.Errorf("the object id: %v (%s), sent as %s; want another answer the spec allows, to resources/list", v.Kind, v.Detail, v.Request)
				}
			}
		}
	}
	if !seen {
		t.Error("no verdict on the object id")
	}
	if t.Failed() {
		r.WriteText(testWriter{t})
	}
}

// TestUnansweredDiscover: a session-era server that never answers
// server/discover is found by the pings sent after it, not by waiting out
// the 30 s bound on a first reply. The run's bound, 10 s, ends a check that
// waits it out with an error.
func TestUnansweredDiscover(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r, err := Run(ctx, &Config{Command: []string{os.Args[0], "silent-legacy-server"}, Wait: time.Second})
	if err != nil {
		t.Fatalf("Run: %v; an unanswered server/discover must be settled by the requests sent after it", err)
	}
	if len(r.Eras) != 1 || r.Eras[0].Version != "2025-11-25" {
		t.Fatalf("got %d eras, want the session era 2025-11-25 alone", len(r.Eras))
	}
	for _, v := range r.Eras[0].Verdicts {
		if v.Lesson == LessonUnknownMethod && v.Kind != AgainstMust {
			t.Errorf("unknown-method: got %v, want against a MUST (it answers nothing)", v.Kind)
		}
	}
	if !r.Fails() {
		t.Error("the report does not fail: its silence to an unknown method is against a MUST")
	}
	if t.Failed() {
		r.WriteText(testWriter{t})
	}
}

// TestStopped: a check whose context ends keeps the verdicts found so far,
// says of the probe it waited on and of each one after that they were not
// checked, and why, and its error wraps ErrStopped and the cause. The
// context ends once the wrong server hangs on the unknown method, which it
// signals.
func TestStopped(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv(checktest.HangNotify, ln.Addr().String())
	cause := errors.New("the test's bound ran out")
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			cancel(cause)
		}
	}()
	r, err := Run(ctx, &Config{Command: []string{os.Args[0], "wrong-server"}, Wait: time.Hour})
	if !errors.Is(err, ErrStopped) || !errors.Is(err, cause) {
		t.Fatalf("Run: %v; want ErrStopped with the cause", err)
	}
	if len(r.Eras) != 2 {
		t.Fatalf("got %d eras, want 2", len(r.Eras))
	}
	want := map[string]struct {
		kind   Kind
		detail string
	}{
		"unknown-tool · mcpc-check-no-such-tool":           {Allowed, ""},
		"internals · validation · tool lookup: id missing": {Leaks, ""},
		"malformed-line · not JSON":                        {AgainstMust, ""},
		"unknown-method · mcpc-check/no-such-method":       {NotChecked, "the check stopped while it waited for the answer: the test's bound ran out"},
		"invalid-request · an id that is an object":        {NotChecked, "the check stopped before it: the test's bound ran out"},
		"cancellation · tools/list":                        {NotChecked, "the check stopped before it: the test's bound ran out"},
		"internals · ":                                     {NotChecked, "the check stopped before its end, so not every text was received: the test's bound ran out"},
	}
	seen := 0
	for _, v := range r.Eras[0].Verdicts {
		w, ok := want[verdictKey(v)]
		if !ok {
			continue
		}
		seen++
		if v.Kind != w.kind || w.detail != "" && v.Detail != w.detail {
			t.Errorf("%s: got %v (%s), want %v (%s)", verdictKey(v), v.Kind, v.Detail, w.kind, w.detail)
		}
	}
	if seen < len(want) {
		t.Errorf("%d of the %d verdicts looked for are in the report", seen, len(want))
	}
	if v := r.Eras[1].Verdicts; len(v) != 1 || v[0].Kind != NotChecked || v[0].Detail != "the check stopped before it: the test's bound ran out" {
		t.Errorf("the session era: got %+v, want one verdict, not checked, saying why", v)
	}
	if t.Failed() {
		r.WriteText(testWriter{t})
	}
}

// testWriter writes to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// forkingServer starts a child that holds the FIFO at path open and waits
// forever, writes a line to the FIFO, and serves as the wrong server: a
// server that starts others, as "go run" does.
func forkingServer(path string) {
	fifo, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		os.Exit(1)
	}
	child := exec.Command(os.Args[0], "sleeper")
	child.ExtraFiles = []*os.File{fifo}
	if child.Start() != nil {
		os.Exit(1)
	}
	io.WriteString(fifo, "started\n")
	checktest.WrongServer()
}
