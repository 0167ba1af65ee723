package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/site"
)

// walkthrough is CONTRIBUTING.md's walkthrough as edits: in each file, the
// text old becomes new. The text a contributor types (shown) must appear in
// CONTRIBUTING.md as it is here, so the guide and this test cannot part.
var walkthrough = []struct {
	file     string
	old, new string
	shown    string
}{
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
		old:  "", // appended
		new: "-- req/empty-title.jsonl --\n" +
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":""},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n",
	},
	{
		file: "docs/tool-errors/en.md",
		old:  ":::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error\n",
		new: ":::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error\n\n" +
			"An empty title is a tool error too, and says what to send instead:\n\n" +
			":::transcript testdata/scripts/01-tool-errors/modern.txtar empty-title\n",
	},
}

// walkthroughLog is the log line the walkthrough says go generate pins.
const walkthroughLog = `time=<time> level=INFO msg="tool error" tool=get_author error="The title is empty: ask for a book by its exact title."`

// TestContributingWalkthrough performs CONTRIBUTING.md's walkthrough in a
// copy of the repository and checks what the guide says comes of it: the
// edits touch three files, go generate ./... writes the new case's reply
// and log pins into the archive (and changes nothing else), the site
// builds, and status names the English section that changed as behind in
// every translation, and only it. It runs go generate in the copy, tens of
// seconds, so it is skipped in -short mode.
func TestContributingWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go generate ./... in a copy of the repository; skipped in -short mode")
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
	for _, e := range walkthrough {
		shown := e.shown
		if shown == "" {
			shown = strings.TrimPrefix(e.new, e.old)
		}
		if !contains(guide, shown) {
			t.Errorf("CONTRIBUTING.md's walkthrough no longer shows this edit of %s; change the walkthrough and this test together:\n%s", e.file, shown)
		}
	}
	if !contains(guide, walkthroughLog) {
		t.Errorf("CONTRIBUTING.md's walkthrough no longer shows the log pin:\n%s", walkthroughLog)
	}

	dir := copyRepository(t)
	before := sectionsBehind(t, dir) // English changes not yet translated
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=walkthrough", "-c", "user.email=walkthrough@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "before the walkthrough")

	for _, e := range walkthrough {
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

	generate := exec.Command("go", "generate", "./...")
	generate.Dir = dir
	generate.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local")
	if out, err := generate.CombinedOutput(); err != nil {
		t.Fatalf("go generate ./...: %v\n%s", err, out)
	}

	changed := strings.Fields(git("status", "--porcelain"))
	want := []string{"M", "chapters/01-tool-errors/main.go", "M", "docs/tool-errors/en.md", "M", "testdata/scripts/01-tool-errors/modern.txtar"}
	if !slices.Equal(changed, want) {
		t.Errorf("after the walkthrough, git status says %q; want the three files the walkthrough edits, modified", changed)
	}
	pinned, err := exchange.Pinned(filepath.Join(dir, "testdata/scripts/01-tool-errors/modern.txtar"), "empty-title")
	if err != nil {
		t.Fatal(err)
	}
	if len(pinned.Replies) != 1 || !strings.Contains(pinned.Replies[0], `"text":"Error executing tool get_author: The title is empty: ask for a book by its exact title."}],"isError":true`) {
		t.Errorf("go generate pinned the replies %q; want the tool error", pinned.Replies)
	}
	if !slices.Equal(pinned.Log, []string{walkthroughLog}) {
		t.Errorf("go generate pinned the log %q; want %q", pinned.Log, walkthroughLog)
	}

	if _, err := site.Build(config(dir, nil)); err != nil {
		t.Errorf("after the walkthrough the site does not build:\n%v", err)
	}
	langs := 0
	for key, ids := range sectionsBehind(t, dir) {
		want := before[key]
		if strings.HasSuffix(key, " tool-errors") {
			langs++
			if !slices.Contains(want, "wire") {
				want = append(slices.Clone(want), "wire")
				slices.Sort(want)
			}
		}
		if !slices.Equal(ids, want) {
			t.Errorf("%s: sections behind %q, want %q (the walkthrough puts behind only tool-errors#wire)", key, ids, want)
		}
	}
	if langs != 12 {
		t.Errorf("tool-errors has %d translations, want 12", langs)
	}
}

// sectionsBehind returns, for each translation in the repository at dir
// ("fr tool-errors"), the ids of its sections behind English, sorted.
func sectionsBehind(t *testing.T, dir string) map[string][]string {
	t.Helper()
	list, err := site.Translations(os.DirFS(filepath.Join(dir, "docs")))
	if err != nil {
		t.Fatal(err)
	}
	behind := make(map[string][]string)
	for _, tr := range list {
		if tr.State == site.Missing {
			continue
		}
		var ids []string
		for _, b := range tr.Behind {
			ids = append(ids, b.ID)
		}
		slices.Sort(ids)
		behind[tr.Lang+" "+tr.Page] = ids
	}
	return behind
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
