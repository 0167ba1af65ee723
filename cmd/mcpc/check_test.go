package main

import (
	"os"
	"path/filepath"

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
