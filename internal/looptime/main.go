// Command looptime measures how long a contributor waits in the guide's
// edit loop: the times CONTRIBUTING.md states come from it. Run it from
// anywhere in the repository, on a machine as idle as you can make it; each
// measurement reports every run, the median, and the load average before the
// first run, so that a busy machine shows.
//
//	go run ./internal/looptime generate [-runs N] [-fresh]
//
// copies the repository's files (as git lists them) into a temporary
// directory, runs go generate ./... once there to warm the caches, then N
// times (default 5): adds a new case to chapter 01 as CONTRIBUTING.md's
// walkthrough does (the chapter's check, the script lines, the request),
// with a message that differs from run to run so that no cache holds its
// pins, and times go generate ./...; the files are put back after each run.
// With -fresh, each run is in a new copy, not warmed: what the docs'
// walkthrough test's go generate ./... costs, as Go compiles the module's
// packages again for a folder it has not seen.
//
//	go run ./internal/looptime serve [-runs N]
//
// serves the guide from such a copy (a go build of ./docs, run with a free
// loopback port), waits for its first build, then N times rewords chapter
// 01's tool error and times how long until the served build changes and the
// tool-errors page shows the new text, as an open page sees it. Between
// runs, untimed, it waits until the server is done with the edit (the pins
// of chapter 01 checked, the Run buttons back), as a contributor who reads
// the page before the next edit finds it.
//
//	go run ./internal/looptime stale [-runs N]
//
// serves such a copy too and N times makes the same edit, which changes
// pinned replies of chapter 01, and times how long until the tool-errors
// page shows the edit and then marks its stale transcripts (the served
// guide's pins' check); it then puts the chapter back and times how long
// until the marks are gone.
//
//	go test -json ./... | go run ./internal/looptime tests
//
// reads go test's JSON events and prints each package's elapsed time, the
// slowest first, with the sum and the wall time from the first event to the
// last.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/looptime generate [-runs N] [-fresh] | serve [-runs N] | stale [-runs N] | tests < go-test-json")
	}
	flag.Parse()
	var err error
	switch flag.Arg(0) {
	case "tests":
		err = tests(os.Stdin, os.Stdout)
	case "generate", "serve", "stale":
		fs := flag.NewFlagSet(flag.Arg(0), flag.ExitOnError)
		runs := fs.Int("runs", 5, "how many timed runs")
		fresh := fs.Bool("fresh", false, "generate: each run in a new copy, without warming Go's build cache for it")
		fs.Parse(flag.Args()[1:])
		switch flag.Arg(0) {
		case "generate":
			err = generate(*runs, *fresh)
		case "serve":
			err = serve(*runs)
		default:
			err = stale(*runs)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "looptime:", err)
		os.Exit(1)
	}
}

// report prints the runs' times and their median.
func report(what string, times []time.Duration) {
	var each []string
	for _, d := range times {
		each = append(each, fmt.Sprintf("%.1fs", d.Seconds()))
	}
	fmt.Printf("%s: median %.1fs of %d runs (%s); load average now %s\n", what, median(times).Seconds(), len(times), strings.Join(each, " "), loadavg())
}

// median returns the median of times (the mean of the middle two for an
// even count).
func median(times []time.Duration) time.Duration {
	s := slices.Clone(times)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// loadavg returns the machine's load averages over 1, 5 and 15 minutes, as
// /proc/loadavg has them, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
