package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/check/checktest"
	"github.com/rogpeppe/go-internal/testscript"
)

// serveHTTP starts a chapter over Streamable HTTP on a free loopback port
// and sets the variable NAME to its endpoint's URL; the chapter is stopped
// when the script ends:
//
//	serve-http NAME CHAPTER
func serveHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: serve-http NAME CHAPTER")
	}
	path := ""
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, args[1])); err == nil && path == "" {
			path = filepath.Join(dir, args[1])
		}
	}
	if path == "" {
		ts.Fatalf("%s is not on the script's PATH", args[1])
	}
	url, stop, err := checktest.ServeHTTP(path)
	ts.Check(err)
	ts.Defer(stop)
	ts.Setenv(args[0], url)
}

// TestCheckLanguages: -lang takes exactly the guide's languages, one per
// file of docs/lang.
func TestCheckLanguages(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "lang", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no languages in docs/lang: %v", err)
	}
	var want []string
	for _, f := range files {
		want = append(want, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	got := slices.Sorted(slices.Values(languages))
	if !slices.Equal(got, want) {
		t.Errorf("-lang takes %v; docs/lang has %v", got, want)
	}
}
