package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// announced matches the line a chapter writes to stderr once it serves
// Streamable HTTP, and captures the endpoint's URL.
var announced = regexp.MustCompile(`serves MCP over Streamable HTTP at (http://\S+)`)

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
	cmd := exec.Command(path, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	ts.Defer(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := announced.FindStringSubmatch(sc.Text()); m != nil {
				url <- m[1]
				break
			}
		}
		close(url)
		for sc.Scan() { // keep its log flowing
		}
	}()
	select {
	case u, ok := <-url:
		if !ok {
			ts.Fatalf("%s ended without announcing its URL", args[1])
		}
		ts.Setenv(args[0], u)
	case <-time.After(30 * time.Second):
		ts.Fatalf("%s did not announce its URL within 30s", args[1])
	}
}
