package callpath

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var update = flag.Bool("update", false, "write the pin, "+PinFile+", from a new measure")

// TestPin measures every case again and checks the pin against it, or with
// -update writes it; go generate ./... runs it so (a step of
// internal/refresh). The default run measures each session 3 times,
// GUIDE_LONG=1 and -update PinRuns times.
func TestPin(t *testing.T) {
	m := setup(t, PinnedChapters()...)
	file := filepath.Join(m.Dir, filepath.FromSlash(PinFile))
	old, err := ReadPin(os.DirFS(m.Dir), PinFile)
	if err != nil && !(*update && errors.Is(err, fs.ErrNotExist)) {
		t.Fatalf("%v\nrun go generate ./... to write %s", err, PinFile)
	}
	runs := 3
	if *update || os.Getenv("GUIDE_LONG") != "" {
		runs = PinRuns
	}
	got, err := MeasurePin(t.Context(), m, runs, old)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(file, got.Marshal(), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diffs := got.Diff(old); len(diffs) > 0 {
		t.Errorf("%s is stale: what one call runs has changed:\n\t%s\nrun go generate ./... to measure it again, and review the diff: the page docs/inside-the-core/en.md is held to it",
			PinFile, strings.Join(diffs, "\n\t"))
	}
}

// TestCap holds the pinned success to Cap.
func TestCap(t *testing.T) {
	p, err := ReadPin(os.DirFS(moduleRoot(t)), PinFile)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := p.Case("success")
	if c == nil {
		t.Fatalf("%s pins no case success; its cases are %v", PinFile, p.CaseNames())
	}
	got := CountFuncs(c.Functions)
	if got.Functions > Cap.Functions || got.Files > Cap.Files || got.Packages > Cap.Packages {
		t.Errorf("a stdio tools/call success runs %d functions in %d files, %d packages: over the cap of %d, %d and %d (callpath.Cap)",
			got.Functions, got.Files, got.Packages, Cap.Functions, Cap.Files, Cap.Packages)
	}
}

// moduleRoot returns the module's root, two levels up.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCodeLines counts a small package's code lines: comments, blank
// lines, tests and files a linux build leaves out are not counted.
func TestCodeLines(t *testing.T) {
	fsys := fstest.MapFS{
		"p/a.go":      {Data: []byte("// Package p.\npackage p\n\n/* a\nblock */\nfunc F() { // F\n\tprintln(`x\ny`)\n}\n")},
		"p/js.go":     {Data: []byte("//go:build js\n\npackage p\n\nvar V = 1\n")},
		"p/a_test.go": {Data: []byte("package p\n\nvar T = 1\n")},
		"p/README":    {Data: []byte("not Go\n")},
	}
	got, err := CodeLines(fsys, []string{"p"})
	if err != nil {
		t.Fatal(err)
	}
	// package p; func F() {; println(`x; y`) (the string's second line
	// holds the parenthesis); }
	if want := (Lines{Lines: 5, Files: 1, Packages: 1}); got != want {
		t.Errorf("CodeLines = %+v, want %+v", got, want)
	}
}
