package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is what tests reads of one of go test -json's events.
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// tests reads go test -json's events from r and writes each package's
// elapsed time and result, the slowest first, each with its top-level tests
// that took a second or more, then their sum and the wall time from the
// first event to the last.
func tests(r io.Reader, w io.Writer) error {
	type result struct {
		pkg     string
		action  string
		elapsed float64
	}
	var results []result
	slow := make(map[string][]result) // by package
	var first, last time.Time
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue // a build failure's line, say
		}
		if first.IsZero() {
			first = e.Time
		}
		last = e.Time
		if e.Action != "pass" && e.Action != "fail" && e.Action != "skip" {
			continue
		}
		switch {
		case e.Test == "":
			results = append(results, result{e.Package, e.Action, e.Elapsed})
		case !strings.Contains(e.Test, "/") && e.Elapsed >= 1:
			slow[e.Package] = append(slow[e.Package], result{e.Test, e.Action, e.Elapsed})
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no package results: pipe go test -json's output in")
	}
	slowest := func(a, b result) int { return cmp.Compare(b.elapsed, a.elapsed) }
	slices.SortFunc(results, slowest)
	sum := 0.0
	for _, r := range results {
		sum += r.elapsed
		fmt.Fprintf(w, "%7.1fs  %-4s  %s\n", r.elapsed, r.action, r.pkg)
		slices.SortFunc(slow[r.pkg], slowest)
		for _, t := range slow[r.pkg] {
			fmt.Fprintf(w, "%15.1fs  %-4s  %s\n", t.elapsed, t.action, t.pkg)
		}
	}
	fmt.Fprintf(w, "%7.1fs  sum of %d packages; wall %.1fs from the first event to the last\n", sum, len(results), last.Sub(first).Seconds())
	return nil
}
