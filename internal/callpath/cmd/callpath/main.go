// Command callpath counts the functions, files and packages of the module
// that one stdio call of a chapter runs beyond an empty session, as package
// callpath measures them (its documentation says how).
//
//	go run ./internal/callpath/cmd/callpath [-chapter DIR] [-case NAMES] [-runs N] [-v] [-json]
//	go run ./internal/callpath/cmd/callpath -chapter chapters/03-resources -v
//	go run ./internal/callpath/cmd/callpath -request LINE [-expect result|tool-error|error]
//
// -chapter is the chapter's directory, relative to the module root
// (default chapters/01-tool-errors). -case is a comma-separated list of
// case names, or all (the default: every case of the chapter, from
// callpath.Cases). -request measures one line of your own instead, named
// custom, whose reply must be of the -expect kind. -v lists the functions
// by package and file; -json writes the whole measure as JSON instead.
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

	"github.com/mcpbookshop/guide/internal/callpath"
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
		fmt.Fprintf(fs.Output(), "usage: go run ./internal/callpath/cmd/callpath [-chapter DIR] [-case NAMES | -request LINE [-expect KIND]] [-v] [-json]\n\n"+
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
	m, err := callpath.FindModule(ctx)
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
	cfg := callpath.Config{Chapter: dir, Runs: *runs, Timeout: *timeout}
	if *request != "" {
		if *names != "all" {
			return fmt.Errorf("-case %s and -request: give one or the other", *names)
		}
		e, err := callpath.ParseExpect(*expectFlag)
		if err != nil {
			return err
		}
		line := strings.TrimSuffix(*request, "\n")
		if strings.Contains(line, "\n") {
			return fmt.Errorf("-request holds a newline: give one JSON-RPC message, on one line")
		}
		cfg.Cases = []callpath.Case{{Name: "custom", Chapter: filepath.Base(dir), Request: line, Expect: e}}
	} else if cfg.Cases, err = callpath.SelectCases(filepath.Base(dir), *names); err != nil {
		return err
	}
	results, err := callpath.Measure(ctx, m, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return m.WriteJSON(w, results)
	}
	m.WriteText(w, results, *verbose)
	return nil
}

// chapterDir returns the chapter directory that -chapter names, relative
// to the module root and slash-separated.
func chapterDir(m callpath.Module, name string) (string, error) {
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
