package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/check/checktest"
	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain registers the commands the scripts run: mcpc itself, and servers
// that fail in the ways the chapters never do.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpc":            main,
		"dying-server":    dyingServer,
		"refusing-server": refusingServer,
		"babbling-server": babblingServer,
		"failing-server":  failingServer,
		"wrong-server":    checktest.WrongServer,
	})
}

// dyingServer reads one message and exits with status 2 without answering.
func dyingServer() {
	bufio.NewReader(os.Stdin).ReadBytes('\n')
	os.Exit(2)
}

// refusingServer answers every request as a modern server that does not
// speak the client's protocol version does.
func refusingServer() {
	answerEach(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}`)
}

// failingServer answers every request with an empty result, and exits with
// status 2 at the end of its input.
func failingServer() {
	answerEach(`{"jsonrpc":"2.0","id":%s,"result":{}}`)
	os.Exit(2)
}

// answerEach answers every request on stdin, until its end, with the line
// reply, whose %s is the request's id.
func answerEach(reply string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct{ ID json.RawMessage }
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil {
			fmt.Printf(reply+"\n", m.ID)
		}
	}
}

// babblingServer writes a line that is not JSON-RPC.
func babblingServer() {
	fmt.Println("Listening on stdio...")
	bufio.NewReader(os.Stdin).ReadBytes('\n')
}

// TestScripts runs the scripts in testdata/script against the chapters'
// servers, built once and put on the scripts' PATH under their directory
// names (01-tool-errors, ...). With -update (exchange.Updating), the
// scripts' cmp rewrites their expected output from mcpc's real output; go
// generate ./... runs it so when mcpc, its scripts or a chapter changed
// (internal/refresh).
func TestScripts(t *testing.T) {
	bin := buildChapters(t)
	exchange.ExplainFailures(t, filepath.Join("testdata", "script"))
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       exchange.Updating(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exits": exits, "serve-http": serveHTTP},
	})
}

// buildChapters builds every chapter into a directory of t's and returns
// it. chapterproc.Build records the chapters' sources for the test cache, so
// a change to a chapter or to what it imports runs the tests again.
func buildChapters(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the chapters:", err)
	}
	chapters, err := chapterproc.List()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := chapterproc.Build(t.Context(), bin, chapters...); err != nil {
		t.Fatal(err)
	}
	return bin
}

// exits runs a command as exec does and checks its exit status:
//
//	exits N command [args...]
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
