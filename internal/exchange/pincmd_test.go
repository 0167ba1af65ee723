package exchange

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// newCase is an archive as a contributor leaves it: a case with its request
// file and its script lines, and no pins yet; another case follows.
const newCase = `# A new case.
exchange req/x.jsonl $SERVER fake-server log
pin stdout want/x.jsonl
pin stderr log/x.log

-- req/x.jsonl --
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"}
-- req/y.jsonl --
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
`

// The pins the fake server's real output makes for newCase.
const (
	wantReplies = `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"
	wantLog     = `time=<time> level=INFO msg=replying line=1 stack="goroutine <n> [running]:\ngithub.com/mcpbookshop/guide/internal/exchange.fakeServer(...)"` + "\n" +
		`time=<time> level=INFO msg=replying line=3 stack="goroutine <n> [running]:\ngithub.com/mcpbookshop/guide/internal/exchange.fakeServer(...)"` + "\n"
)

// recorder is a testscript.T that records what the scripts log and
// whether they fail, so that a test can run scripts that should fail.
type recorder struct {
	log    strings.Builder
	failed bool
}

func (r *recorder) Skip(args ...any)  { r.Log(args...); runtime.Goexit() }
func (r *recorder) Fatal(args ...any) { r.Log(args...); r.FailNow() }
func (r *recorder) Parallel()         {}
func (r *recorder) Log(args ...any)   { fmt.Fprintln(&r.log, args...) }
func (r *recorder) FailNow()          { r.failed = true; runtime.Goexit() }
func (r *recorder) Verbose() bool     { return false }

// Run runs f to its end, or to its FailNow, before it returns.
func (r *recorder) Run(name string, f func(testscript.T)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
}

// runPins runs the archive in dir with the exchange and pin commands, the
// fake server as $SERVER, and reports what the run logged and whether it
// failed.
func runPins(t *testing.T, dir string, update bool) (log string, failed bool) {
	t.Helper()
	pins := Pins{Dir: dir, Update: update, Package: TestPackage()}
	var r recorder
	testscript.RunT(&r, testscript.Params{
		Dir:  dir,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exchange": Cmd, "pin": pins.Cmd},
		Setup: func(env *testscript.Env) error {
			env.Setenv("SERVER", os.Args[0])
			return pins.Setup(env)
		},
		RequireExplicitExec: true,
	})
	return r.log.String(), r.failed
}

// writeArchive writes the archive new.txtar in a new directory and returns
// its path.
func writeArchive(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "new.txtar")
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPinUpdateWritesMissingPins(t *testing.T) {
	archive := writeArchive(t, newCase)
	if log, failed := runPins(t, filepath.Dir(archive), true); failed {
		t.Fatalf("the update failed:\n%s", log)
	}
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range ar.Files {
		names = append(names, f.Name)
	}
	// The pins follow their case's request, before the next case.
	if got, want := strings.Join(names, " "), "req/x.jsonl want/x.jsonl log/x.log req/y.jsonl"; got != want {
		t.Fatalf("sections = %s, want %s", got, want)
	}
	if got := string(ar.Files[1].Data); got != wantReplies {
		t.Errorf("want/x.jsonl =\n%s\nwant the server's replies\n%s", got, wantReplies)
	}
	if got := string(ar.Files[2].Data); got != wantLog {
		t.Errorf("log/x.log =\n%s\nwant the server's normalized log\n%s", got, wantLog)
	}
	if !strings.HasPrefix(newCase, string(ar.Comment)) {
		t.Errorf("the script changed:\n%s", ar.Comment)
	}

	// The pins written, the case passes as it is, and -update changes nothing.
	if log, failed := runPins(t, filepath.Dir(archive), false); failed {
		t.Fatalf("the written pins fail:\n%s", log)
	}
	before, _ := os.ReadFile(archive)
	runPins(t, filepath.Dir(archive), true)
	if after, _ := os.ReadFile(archive); string(after) != string(before) {
		t.Errorf("a second -update rewrote the archive:\n%s", after)
	}
}

func TestPinMissingFails(t *testing.T) {
	archive := writeArchive(t, newCase)
	log, failed := runPins(t, filepath.Dir(archive), false)
	if !failed {
		t.Fatalf("a case without pins passed:\n%s", log)
	}
	for _, want := range []string{
		// The archive is outside the repository: its path is absolute.
		"case x: stdout has no pin want/x.jsonl of " + filepath.ToSlash(archive) + " yet",
		"\tgo generate ./...\n",
		"\tgo test ./internal/exchange -run '^TestScripts$' -update\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the failure does not say %q:\n%s", want, log)
		}
	}
	if after, _ := os.ReadFile(archive); string(after) != newCase {
		t.Errorf("a run without -update wrote the archive:\n%s", after)
	}
}

func TestPinStaleFailsTeaching(t *testing.T) {
	stale := strings.Replace(wantReplies, `"id":3,"result":{}`, `"id":3,"result":{"tools":[]}`, 1)
	text := newCase + "-- want/x.jsonl --\n" + stale + "-- log/x.log --\n" + wantLog
	archive := writeArchive(t, text)
	log, failed := runPins(t, filepath.Dir(archive), false)
	if !failed {
		t.Fatalf("a stale pin passed:\n%s", log)
	}
	want := "case x: stdout differs from its pin want/x.jsonl of " + filepath.ToSlash(archive) + " in line 2 at byte 35:\n" +
		"\tpinned: …jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[]}}\n" +
		"\tactual: …jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n" +
		"\t                                         ^\n" +
		"If the new output is right, refresh the pins from the repository's root, and review them with git diff:\n" +
		"\tgo generate ./...\n" +
		"or, for one package's pins only:\n" +
		"\tgo test ./internal/exchange -run '^TestScripts$' -update\n"
	if !strings.Contains(log, want) {
		t.Errorf("the failure does not read\n%s\nit reads\n%s", want, log)
	}
	if after, _ := os.ReadFile(archive); string(after) != text {
		t.Errorf("a run without -update wrote the archive:\n%s", after)
	}

	// -update brings the stale pin up to date, in place.
	runPins(t, filepath.Dir(archive), true)
	after, _ := os.ReadFile(archive)
	if want := newCase + "-- want/x.jsonl --\n" + wantReplies + "-- log/x.log --\n" + wantLog; string(after) != want {
		t.Errorf("after -update the archive is\n%s\nwant\n%s", after, want)
	}
}
