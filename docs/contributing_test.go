package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/internal/site"
)

// A walk is one of CONTRIBUTING.md's walkthroughs as a test performs it:
// the edits a contributor makes, and what comes of them.
type walk struct {
	name    string
	chapter string // the chapter it changes, as 01-tool-errors
	edits   []edit
	// The case it adds, in archive (from the repository's root), and the
	// pins go generate must write for it: each reply holds its string of
	// replies, in order, and the log is log's lines.
	archive, caseName string
	replies           []string
	log               []string
	// The English section it changes, which must fall behind in every
	// translation, and nothing else.
	page, section string
}

// An edit is a change to one file: the text old becomes new (old "" appends
// new). The text a contributor types, shown (by default what new adds to
// old), must appear in CONTRIBUTING.md as it is here, so that the guide and
// this test cannot part.
type edit struct {
	file     string
	old, new string
	shown    string
}

// legacyHandshake is the opening of a legacy-era case's requests.
const legacyHandshake = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"testscript","version":"1.0.0"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// walks are CONTRIBUTING.md's walkthroughs: a modern-era tool error in
// chapter 01, shown on tool-errors, and a legacy-era protocol error with
// data in chapter 02, shown on protocol-errors.
var walks = []walk{
	{
		name:    "tool error",
		chapter: "01-tool-errors",
		edits: []edit{
			{
				file:  "chapters/01-tool-errors/main.go",
				old:   "import (\n\t\"context\"\n",
				new:   "import (\n\t\"context\"\n\t\"errors\"\n",
				shown: "add `\"errors\"` to the imports",
			},
			{
				file: "chapters/01-tool-errors/main.go",
				old:  "\tauthor, ok := catalog[args.Title]\n",
				new: "\tif args.Title == \"\" {\n" +
					"\t\treturn \"\", errors.New(\"The title is empty: ask for a book by its exact title.\")\n" +
					"\t}\n" +
					"\tauthor, ok := catalog[args.Title]\n",
			},
			{
				file: "testdata/scripts/01-tool-errors/modern.txtar",
				old:  "pin stderr log/tool-error.log\n",
				new: "pin stderr log/tool-error.log\n\n" +
					"# An empty title: a tool error that says what to send instead.\n" +
					"exchange req/empty-title.jsonl 01-tool-errors\n" +
					"pin stdout want/empty-title.jsonl\n" +
					"pin stderr log/empty-title.log\n",
			},
			{
				file: "testdata/scripts/01-tool-errors/modern.txtar",
				new: "-- req/empty-title.jsonl --\n" +
					mcptest.ToolCall("1", "get_author", `{"title":""}`) + "\n",
			},
			{
				file: "docs/tool-errors/en.md",
				old:  ":::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error\n",
				new: ":::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error\n\n" +
					"An empty title is a tool error too, and says what to send instead:\n\n" +
					":::transcript testdata/scripts/01-tool-errors/modern.txtar empty-title\n",
			},
		},
		archive:  "testdata/scripts/01-tool-errors/modern.txtar",
		caseName: "empty-title",
		replies:  []string{`"text":"Error executing tool get_author: The title is empty: ask for a book by its exact title."}],"isError":true`},
		log:      []string{`time=<time> level=INFO msg="tool error" tool=get_author error="The title is empty: ask for a book by its exact title."`},
		page:     "tool-errors",
		section:  "wire",
	},
	{
		name:    "legacy protocol error",
		chapter: "02-protocol-errors",
		edits: []edit{
			{
				file: "chapters/02-protocol-errors/main.go",
				old:  "var catalog = map[string]string{\"Dune\": \"Frank Herbert\", \"Neuromancer\": \"William Gibson\"}\n",
				new: "var catalog = map[string]string{\"Dune\": \"Frank Herbert\", \"Neuromancer\": \"William Gibson\"}\n\n" +
					"var withdrawn = map[string]bool{\"Snow Crash\": true}\n",
			},
			{
				file: "chapters/02-protocol-errors/main.go",
				old:  "\tauthor, ok := catalog[args.Title]\n",
				new: "\tif withdrawn[args.Title] {\n" +
					"\t\treturn \"\", &mcp.Error{\n" +
					"\t\t\tCode:    mcp.CodeInvalidParams,\n" +
					"\t\t\tMessage: fmt.Sprintf(\"'%s' is withdrawn from the catalog.\", args.Title),\n" +
					"\t\t\tData:    map[string]string{\"title\": args.Title, \"status\": \"withdrawn\"},\n" +
					"\t\t}\n" +
					"\t}\n" +
					"\tauthor, ok := catalog[args.Title]\n",
			},
			{
				file: "testdata/scripts/02-protocol-errors/legacy.txtar",
				old:  "pin stderr log/protocol-error.log\n",
				new: "pin stderr log/protocol-error.log\n\n" +
					"# A withdrawn book: a protocol error whose data says why, for the host.\n" +
					"exchange req/withdrawn.jsonl 02-protocol-errors\n" +
					"pin stdout want/withdrawn.jsonl\n" +
					"pin stderr log/withdrawn.log\n",
			},
			{
				file: "testdata/scripts/02-protocol-errors/legacy.txtar",
				new: "-- req/withdrawn.jsonl --\n" + legacyHandshake +
					`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Snow Crash"}}}` + "\n",
			},
			{
				file: "docs/protocol-errors/en.md",
				old:  "  [handler-error](errors.html#handler-error).\n",
				new: "  [handler-error](errors.html#handler-error).\n\n" +
					"A handler can tell the host more in `data`. Here a withdrawn book is\n" +
					"refused so, in the legacy era, after the handshake:\n\n" +
					":::transcript testdata/scripts/02-protocol-errors/legacy.txtar withdrawn\n",
			},
		},
		archive:  "testdata/scripts/02-protocol-errors/legacy.txtar",
		caseName: "withdrawn",
		replies: []string{
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"'Snow Crash' is withdrawn from the catalog.","data":{"status":"withdrawn","title":"Snow Crash"}}}`,
		},
		log:     []string{`time=<time> level=WARN msg="protocol error" method=tools/call code=-32602 message="'Snow Crash' is withdrawn from the catalog." data="{\"status\":\"withdrawn\",\"title\":\"Snow Crash\"}"`},
		page:    "protocol-errors",
		section: "wire",
	},
}

// TestContributingWalkthrough performs each of CONTRIBUTING.md's
// walkthroughs in a copy of the repository, after checking that
// CONTRIBUTING.md still shows its edits, and checks what the guide says
// comes of it, judging only the walk's own change: before the pins are
// written the chapter's test fails naming the case, the pin and go generate
// ./...; then the edits touch their three files (other files that go
// generate changes, stale before the walk, are logged), the pins of the new
// case are written, the changed chapter's own tests pass, the site builds,
// and the English section that changed is behind in the twelve
// translations, with nothing newly behind besides it.
//
// The walks share one copy, each judged against the commit before it. Each
// runs go generate ./..., as CONTRIBUTING.md says, which runs again only
// the scripts whose inputs the walk changed (internal/refresh's cache, in
// the user's cache folder, serves the copy too). It is skipped in -short
// mode.
func TestContributingWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("walks CONTRIBUTING.md in a copy of the repository; skipped in -short mode")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the walkthrough needs %s: %v", tool, err)
		}
	}
	guide, err := os.ReadFile(filepath.Join(testRoot, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	// One copy for the walks, one after the other, each judged against
	// the commit before it: the copy's packages compile once.
	dir := copyRepository(t)
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "before the walkthroughs")
	for _, w := range walks {
		t.Run(w.name, func(t *testing.T) {
			for _, e := range w.edits {
				shown := e.shown
				if shown == "" {
					shown = strings.TrimPrefix(e.new, e.old)
				}
				if !contains(guide, shown) {
					t.Errorf("CONTRIBUTING.md no longer shows this edit of %s; change the walkthrough and this test together:\n%s", e.file, shown)
				}
			}
			for _, line := range w.log {
				if !contains(guide, line) {
					t.Errorf("CONTRIBUTING.md no longer shows the log pin of %s:\n%s", w.caseName, line)
				}
			}
			// Back to the last commit, in case a walk before failed.
			git(t, dir, "reset", "-q", "--hard")
			git(t, dir, "clean", "-q", "-f", "-d")
			w.perform(t, dir)
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "-m", w.name)
		})
	}
}

// perform walks w in dir, a copy of the repository whose working tree is
// its last commit, and checks its outcome.
func (w walk) perform(t *testing.T, dir string) {
	before := behind(t, dir)

	var files []string
	for _, e := range w.edits {
		if !slices.Contains(files, e.file) {
			files = append(files, e.file)
		}
		file := filepath.Join(dir, filepath.FromSlash(e.file))
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case e.old == "":
			b = append(b, e.new...)
		case bytes.Count(b, []byte(e.old)) != 1:
			t.Fatalf("%s no longer holds %q once: update the walkthrough in CONTRIBUTING.md and this test", e.file, e.old)
		default:
			b = bytes.Replace(b, []byte(e.old), []byte(e.new), 1)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Before the pins are written, the chapter's test fails naming the
	// case, the pin it lacks and the command, as CONTRIBUTING.md says.
	pin := "want/" + w.caseName + ".jsonl"
	out, err := output(dir, "go", "test", "./chapters/"+w.chapter)
	if missing := fmt.Sprintf("case %s: stdout has no pin %s of %s yet", w.caseName, pin, w.archive); err == nil || !strings.Contains(out, missing) || !strings.Contains(out, "\t"+exchange.RefreshCommand+"\n") {
		t.Errorf("before go generate, go test ./chapters/%s: %v; want a failure that says\n%s\nand names %s; it printed\n%s", w.chapter, err, missing, exchange.RefreshCommand, out)
	}

	const generate = "./..."
	run(t, dir, "go", "generate", generate)

	// The files changed: the walk's three, and any other that go generate
	// changed because it was stale before the walk (its own test says so).
	var stale []string
	for line := range strings.Lines(git(t, dir, "status", "--porcelain", "--untracked-files=all")) {
		status, name := line[:2], strings.TrimSpace(line[3:])
		switch {
		case !slices.Contains(files, name):
			stale = append(stale, name)
		case status != " M":
			t.Errorf("git status: %q %s; want it modified", status, name)
		}
		files = slices.DeleteFunc(files, func(f string) bool { return f == name })
	}
	if len(files) > 0 {
		t.Errorf("after the walkthrough, git status does not list %q as changed", files)
	}
	if len(stale) > 0 {
		t.Logf("stale in the working tree: go generate %s also changes %q, stale before the walk; run go generate ./... in the repository (their own tests fail until then)", generate, stale)
	}

	// The pins written. A chapter that answers otherwise than the
	// walkthrough says needs the walkthrough changed, not the pins.
	pinned, err := exchange.Pinned(filepath.Join(dir, filepath.FromSlash(w.archive)), w.caseName)
	if err != nil {
		t.Fatalf("go generate %s: %v", generate, err)
	}
	fix := fmt.Sprintf("case %s, pinned in %s of %s: if the chapter answers so on purpose, change the walkthrough in CONTRIBUTING.md and docs/contributing_test.go together", w.caseName, pin, w.archive)
	if len(pinned.Replies) != len(w.replies) {
		t.Errorf("go generate pinned %d replies %q; want %d\n%s", len(pinned.Replies), pinned.Replies, len(w.replies), fix)
	}
	for i := range min(len(pinned.Replies), len(w.replies)) {
		if !strings.Contains(pinned.Replies[i], w.replies[i]) {
			t.Errorf("go generate pinned the reply %d\n%s\nwhich does not hold\n%s\n%s", i+1, pinned.Replies[i], w.replies[i], fix)
		}
	}
	if !slices.Equal(pinned.Log, w.log) {
		t.Errorf("go generate pinned the log %q; want %q\n%s", pinned.Log, w.log, fix)
	}

	// The changed chapter's own tests pass in the copy, new case included.
	run(t, dir, "go", "test", "./chapters/"+w.chapter)

	// The site built, and the section behind.
	if _, err := site.Build(config(dir, nil)); err != nil {
		t.Errorf("after the walkthrough the site does not build:\n%v", err)
	}
	after := behind(t, dir)
	changed, langs := w.page+"#"+w.section, 0
	for _, lang := range slices.Sorted(maps.Keys(after)) {
		var newly []string
		for _, s := range after[lang] {
			if !slices.Contains(before[lang], s) {
				newly = append(newly, s)
			}
		}
		if slices.Contains(after[lang], changed) {
			langs++
			newly = slices.DeleteFunc(newly, func(s string) bool { return s == changed })
		}
		if len(newly) > 0 {
			t.Errorf("%s: newly behind %q; the walkthrough changes only %s", lang, newly, changed)
		}
	}
	if langs != 12 {
		t.Errorf("%s is behind in %d translations, want 12", changed, langs)
	}
}

// behind returns the sections behind their English in the repository at
// dir, by language, each as page#section.
func behind(t *testing.T, dir string) map[string][]string {
	t.Helper()
	list, err := site.Translations(os.DirFS(filepath.Join(dir, "docs")))
	if err != nil {
		t.Fatal(err)
	}
	by := make(map[string][]string)
	for _, tr := range list {
		for _, b := range tr.Behind {
			by[tr.Lang] = append(by[tr.Lang], tr.Page+"#"+b.ID)
		}
	}
	return by
}

// git runs git in dir as run does, as a committer of its own.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return run(t, dir, "git", append([]string{"-c", "user.name=walkthrough", "-c", "user.email=walkthrough@example.com"}, args...)...)
}

// run runs the command name in dir, without the proxy or another
// toolchain, and returns its output; it fails t if the command fails.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := output(dir, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// output runs the command name in dir as run does, and returns its output
// and error.
func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// contains reports whether the Markdown b holds s, ignoring how its lines
// are wrapped.
func contains(b []byte, s string) bool {
	return strings.Contains(strings.Join(strings.Fields(string(b)), " "), strings.Join(strings.Fields(s), " "))
}

// copyRepository copies the repository's files, as git lists them (tracked,
// and new ones not ignored), into a temporary directory, and returns it.
// Copying them from the test records each as an input of the test, so go
// test's cache runs it again after any of them changes.
func copyRepository(t *testing.T) string {
	t.Helper()
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = testRoot
	out, err := ls.Output()
	if err != nil {
		t.Skipf("the walkthrough copies the repository's files as git lists them: %v", err)
	}
	dir := t.TempDir()
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src, err := os.Open(filepath.Join(testRoot, name))
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(dst)
		if err == nil {
			_, err = io.Copy(f, src)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
