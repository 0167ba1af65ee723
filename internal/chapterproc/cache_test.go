package chapterproc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cacheSubject is the test TestCacheSeesChanges runs in its copy of the
// module: one chapter built by a subprocess, checked against its pins.
var cacheSubject = []string{"-run", "^TestBuiltChaptersAnswerAsPinned$/^01-tool-errors$", "./internal/chapterproc"}

// TestCacheSeesChanges shows, in a copy of the module, that go test's cache
// does not hide a change to a chapter built in a subprocess: the test of
// cacheSubject passes and is then "(cached)"; after a change to the
// chapter's main.go it runs again and fails; restored, it passes; after a
// change to a file of mcp/ that the chapter imports, it runs again and
// fails. Each change appends an init function that panics (see breakFile),
// so that the test does not depend on the wording of any message.
//
// The copy holds only what that test needs (the packages it and chapter 01
// are built from, go.mod, go.sum and chapter 01's scripts). It shares the
// real build cache, and the module cache with GOPROXY=off. Each edit sets
// the file's modification time explicitly, to a time in the past distinct
// from the last, since go test tells files apart by size and modification
// time and caches no result that read a file modified in the last two
// seconds. It takes tens of seconds (mostly compiling mcp/ in the copy,
// twice): a long check, run with GUIDE_LONG=1 (as .ci/run does), and
// skipped in -short mode.
func TestCacheSeesChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test five times in a copy of the module; skipped in -short mode")
	}
	if os.Getenv("GUIDE_LONG") == "" {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	needGo(t)
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	copyRoot := t.TempDir()
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	copyModule(t, root, copyRoot, base)

	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local")
	goTest := func() (string, error) {
		cmd := exec.Command("go", append([]string{"test"}, cacheSubject...)...)
		cmd.Dir, cmd.Env = copyRoot, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// expect runs the test and checks that it passed or failed, and whether
	// it ran or came from the cache.
	expect := func(step string, pass, cached bool) string {
		t.Helper()
		start := time.Now()
		out, err := goTest()
		gotCached := strings.Contains(out, "(cached)")
		if (err == nil) != pass || gotCached != cached {
			t.Fatalf("%s: go test %s: %v, cached %v; want pass %v, cached %v:\n%s", step, strings.Join(cacheSubject, " "), err, gotCached, pass, cached, out)
		}
		t.Logf("%s: %s (%.1fs)", step, resultLine(out, pass), time.Since(start).Seconds())
		return out
	}

	expect("first run", true, false)
	expect("second run, nothing changed", true, true)

	chapter := filepath.Join(copyRoot, "chapters", "01-tool-errors", "main.go")
	restore := breakFile(t, chapter, "the chapter changed", base.Add(1*time.Minute))
	if out := expect("the chapter changed", false, false); !strings.Contains(out, "panic: the chapter changed") {
		t.Errorf("the failure does not show the changed chapter's panic:\n%s", out)
	}
	restore(base.Add(2 * time.Minute))
	expect("the chapter restored", true, false)

	breakFile(t, filepath.Join(copyRoot, "mcp", "errortable.go"), "mcp changed", base.Add(3*time.Minute))
	if out := expect("a file of mcp/ changed", false, false); !strings.Contains(out, "panic: mcp changed") {
		t.Errorf("the failure does not show the changed mcp's panic:\n%s", out)
	}
}

// resultLine returns the line of go test's output that gives the package's
// result: the last "ok" or "FAIL" line.
func resultLine(out string, pass bool) string {
	prefix := "FAIL\t"
	if pass {
		prefix = "ok "
	}
	result := ""
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, prefix) {
			result = strings.TrimSpace(line)
		}
	}
	return result
}

// copyModule copies into dst what cacheSubject needs of the module at root:
// the files (not the subdirectories) of every package of the module that
// the test or chapter 01 is built from, go.mod, go.sum and chapter 01's
// scripts, each with the modification time mtime.
func copyModule(t *testing.T, root, dst string, mtime time.Time) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-test", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "./internal/chapterproc", "./chapters/01-tool-errors")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing the packages to copy: %v", err)
	}
	dirs := append(strings.Fields(string(out)), filepath.Join(root, "testdata", "scripts", "01-tool-errors"))
	copyFile(t, filepath.Join(root, "go.mod"), filepath.Join(dst, "go.mod"), mtime)
	copyFile(t, filepath.Join(root, "go.sum"), filepath.Join(dst, "go.sum"), mtime)
	for _, dir := range dirs {
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("package directory %s is outside the module at %s", dir, root)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Type().IsRegular() {
				copyFile(t, filepath.Join(dir, e.Name()), filepath.Join(dst, rel, e.Name()), mtime)
			}
		}
	}
}

// copyFile copies src to dst, making dst's directory, and sets dst's
// modification time.
func copyFile(t *testing.T, src, dst string, mtime time.Time) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(dst, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// breakFile appends to the Go file name an init function that panics with
// message, so that every program built with it fails however the module's
// texts are worded, and sets the file's modification time; it returns a
// function that restores the file, with the modification time it is given.
func breakFile(t *testing.T, name, message string, mtime time.Time) (restore func(time.Time)) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	write := func(data []byte, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Appendf(bytes.Clone(b), "\nfunc init() { panic(%q) }\n", message), mtime)
	return func(mtime time.Time) { write(b, mtime) }
}
