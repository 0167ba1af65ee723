// Callpath measures which functions of the module one real stdio call runs,
// for the "Numbers" of issue 17: "set-mode coverage of a one-call session
// less an empty session".
//
// # What it measures
//
// A session is one run of a chapter's server over stdio. The empty session
// gets nothing: its stdin ends at once, so it runs only what every session
// runs (flag parsing, the server's setup, the read loop starting and
// ending). A case's session gets one modern request line, then the end of
// stdin: a modern (2026-07-28) request carries its protocol version and
// client capabilities in params._meta and needs no initialize, so that one
// line is the whole session. Each session runs -runs times (5 by default).
// A function counts for the call when every session with the call ran it
// and no empty session did: what an empty session runs is not part of the
// call. A function that some sessions of a kind run and others do not (a
// goroutine that the end of stdin may or may not let start, say) counts
// by the same rule, and is also listed as having "ran in some of the
// sessions of a kind and not in others".
//
// Two counts are given for each case:
//
//   - functions: function declarations (functions and methods), a func
//     literal's blocks counting for the declaration that holds it, as go
//     tool covdata func folds them. A declaration ran when a block of it or
//     of a literal in it ran. Func literals at package level (in a var's
//     initializer) belong to no declaration and are left out, as covdata
//     func leaves them out. This count equals what covdata func reports
//     covered in a session with the call and not in an empty one (a test
//     checks it).
//   - with closures: declarations and func literals, each a function of
//     its own that ran when a block of its own (not of a literal in it)
//     ran. This is issue 17's "closures included".
//
// Issue 17 also quotes a count "with a warm-up call, then one measured
// call". Set-mode coverage is cumulative for a process, so a session with a
// warm-up call and a measured call covers what a session with the warm-up
// call alone covers, and that count cannot be taken this way; what one
// call runs beyond an empty session is the measure given here. Work done
// once, on the first call (a sync.Once, a cache filled), is part of it.
//
// Functions of the chapter's own main package (its handler) are listed
// apart as the chapter's own and not counted: the measure is of the code a
// reader opens beside the chapter. Func literals are named as a stack trace
// names them when their function is not inlined, numbered in source order:
// (*Server).runTool.func1, (*Server).runTool.func1.1 for a literal in that
// one, init.func1 for one at package level (numbered across the package's
// files that ran, in name order, which is the compiler's order unless a
// file none of whose code ran holds one too). Type parameters show as
// [...]. A function whose body has no statements has no coverage block and
// is never counted.
//
// # How
//
// Callpath builds the chapter into a temporary directory with
//
//	go build -cover -covermode=set -coverpkg=<module path>/... -o TMP/server ./<chapter>
//
// and runs the binary for each session with GOCOVERDIR set to a new
// directory, writing the request line (or nothing) on a pipe to its stdin
// and closing it. It reads each session's coverage with go tool covdata
// textfmt, parsing the text profile itself (a mode line, then
// file:line.col,line.col statements count for each block), and attributes
// each covered block to the innermost function declaration or func literal
// whose body holds it, found with go/parser in the module's source. Every
// session must exit with status 0 within -timeout; the empty session must
// write nothing on stdout, and a case's session exactly one reply to id 1 of
// the case's kind (a result without "isError":true for success and
// read-found, one with "isError":true for tool-error, an error object for
// read-not-found). Anything else stops callpath with an error that shows
// what was sent and what came back. The temporary directory is removed at
// the end.
//
// # Usage
//
//	go run ./internal/callpath [-chapter DIR] [-case NAMES] [-runs N] [-v] [-json]
//	go run ./internal/callpath -chapter chapters/03-resources -v
//	go run ./internal/callpath -request LINE [-expect result|tool-error|error]
//
// -chapter is the chapter's directory, relative to the module root
// (default chapters/01-tool-errors). -case is a comma-separated list of
// case names, or all (the default: every case of the chapter): success and
// tool-error for chapters/01-tool-errors (get_author with the titles
// "Dune" and "Nothing"), read-found and read-not-found for
// chapters/03-resources (resources/read of books://Dune and
// books://Nothing); the table is cases, in cases.go. -request measures one
// line of your own instead, named custom, whose reply must be of the
// -expect kind. -v lists the functions by package and file; -json writes
// the whole measure as JSON instead. For each case callpath prints the
// request, the reply, both counts with the functions of each package, and
// the chapter's own functions; the output ends with one summary line for
// each case:
//
//	success: 51 functions in 12 files, 5 packages; 62 with closures in 12 files, 5 packages
//
// Run it inside the module, with the go command on PATH.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "callpath:", err)
		os.Exit(1)
	}
}

// run is callpath with its command line args, writing its report to w.
func run(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("callpath", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./internal/callpath [-chapter DIR] [-case NAMES | -request LINE [-expect KIND]] [-v] [-json]\n\n"+
			"callpath counts the functions of the module that one stdio call runs beyond an empty session.\n\n")
		fs.PrintDefaults()
	}
	chapter := fs.String("chapter", "chapters/01-tool-errors", "the chapter's `DIR`ectory, relative to the module root")
	names := fs.String("case", "all", "the cases to measure: comma-separated `NAMES`, or all of the chapter's")
	request := fs.String("request", "", "measure this JSON-RPC request `LINE` instead of the table's cases")
	expectFlag := fs.String("expect", "result", "with -request, the `KIND` of reply it must get: result, tool-error or error")
	verbose := fs.Bool("v", false, "list the functions, by package and file")
	asJSON := fs.Bool("json", false, "write the measure as JSON")
	runs := fs.Int("runs", 5, "run each session `N` times: a function counts when every session with the call ran it and no empty session did")
	timeout := fs.Duration("timeout", 30*time.Second, "how long a session may run after its stdin ends")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: callpath takes flags only (see -h)", fs.Arg(0))
	}
	m, err := findModule(ctx)
	if err != nil {
		return err
	}
	dir, err := chapterDir(m, *chapter)
	if err != nil {
		return err
	}
	if *runs < 1 {
		return fmt.Errorf("-runs %d: want at least 1", *runs)
	}
	cfg := config{Chapter: dir, Runs: *runs, Timeout: *timeout}
	if *request != "" {
		if *names != "all" {
			return fmt.Errorf("-case %s and -request: give one or the other", *names)
		}
		e, err := parseExpect(*expectFlag)
		if err != nil {
			return err
		}
		line := strings.TrimSuffix(*request, "\n")
		if strings.Contains(line, "\n") {
			return fmt.Errorf("-request holds a newline: give one JSON-RPC message, on one line")
		}
		cfg.Cases = []callCase{{Name: "custom", Chapter: filepath.Base(dir), Request: line, Expect: e}}
	} else if cfg.Cases, err = selectCases(filepath.Base(dir), *names); err != nil {
		return err
	}
	results, err := measure(ctx, m, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return m.writeJSON(w, results)
	}
	m.writeText(w, results, *verbose)
	return nil
}

// chapterDir returns the chapter directory that -chapter names, relative
// to the module root and slash-separated.
func chapterDir(m module, name string) (string, error) {
	dir := filepath.Clean(name)
	if filepath.IsAbs(dir) {
		rel, err := filepath.Rel(m.Dir, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			return "", fmt.Errorf("-chapter %s is outside the module at %s", name, m.Dir)
		}
		dir = rel
	}
	if strings.HasPrefix(dir, "..") {
		return "", fmt.Errorf("-chapter %s is outside the module: give a directory relative to the module root, such as chapters/03-resources", name)
	}
	if fi, err := os.Stat(filepath.Join(m.Dir, dir)); err != nil || !fi.IsDir() {
		var chapters []string
		entries, _ := os.ReadDir(filepath.Join(m.Dir, "chapters"))
		for _, e := range entries {
			if e.IsDir() {
				chapters = append(chapters, "chapters/"+e.Name())
			}
		}
		return "", fmt.Errorf("-chapter %s: no such directory in the module; the chapters are %s", name, strings.Join(chapters, ", "))
	}
	return filepath.ToSlash(dir), nil
}
