package callpath

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// summary is the one line that ends callpath's output for r.
func (m Module) summary(r Result) string {
	a, b := m.count(r.Functions), m.count(r.WithClosures)
	return summaryLine(r.Case.Name, Count{a.Functions, a.Files, a.Packages}, Count{b.Functions, b.Files, b.Packages})
}

// summaryLine is the summary of the case called name, which runs fns
// functions, and withClosures counting func literals apart.
func summaryLine(name string, fns, withClosures Count) string {
	return fmt.Sprintf("%s: %d functions in %d files, %d packages; %d with closures in %d files, %d packages",
		name, fns.Functions, fns.Files, fns.Packages, withClosures.Functions, withClosures.Files, withClosures.Packages)
}

// byPackage says how many functions of each package c counts.
func byPackage(c Counts) string {
	var parts []string
	for _, p := range c.ByPackage {
		parts = append(parts, fmt.Sprintf("%s %d", p.Package, p.Functions))
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the measures of results, with the list of functions if
// verbose, then one summary line for each.
func (m Module) WriteText(w io.Writer, results []Result, verbose bool) {
	for _, r := range results {
		a, b := m.count(r.Functions), m.count(r.WithClosures)
		fmt.Fprintf(w, "== %s (%s)\n", r.Case.Name, m.rel(r.Chapter))
		fmt.Fprintf(w, "sent:  %s\n", r.Case.Request)
		fmt.Fprintf(w, "reply: %s\n", strings.TrimSuffix(r.Reply, "\n"))
		fmt.Fprintf(w, "functions:     %d in %d files, %d packages (%s)\n", a.Functions, a.Files, a.Packages, byPackage(a))
		fmt.Fprintf(w, "with closures: %d in %d files, %d packages (%s)\n", b.Functions, b.Files, b.Packages, byPackage(b))
		var own []string
		for _, f := range r.Main {
			own = append(own, f.Name)
		}
		fmt.Fprintf(w, "the chapter's own, not counted: %s\n", strings.Join(own, ", "))
		if len(r.Unsteady) > 0 {
			var names []string
			for _, f := range r.Unsteady {
				names = append(names, m.rel(f.Pkg)+"."+f.Name)
			}
			fmt.Fprintf(w, "ran in some of the %d sessions of a kind and not in others: %s\n", r.Runs, strings.Join(names, ", "))
		}
		if verbose {
			m.writeList(w, r)
		}
		fmt.Fprintln(w)
	}
	for _, r := range results {
		fmt.Fprintln(w, m.summary(r))
	}
}

// writeList writes the functions of r, by package and file. A line is a
// declaration counted both ways unless its tag says otherwise.
func (m Module) writeList(w io.Writer, r Result) {
	inA := make(map[*Function]bool)
	for _, f := range r.Functions {
		inA[f] = true
	}
	all := append([]*Function(nil), r.WithClosures...)
	inB := make(map[*Function]bool)
	for _, f := range r.WithClosures {
		inB[f] = true
	}
	for _, f := range r.Functions {
		if !inB[f] {
			all = append(all, f)
		}
	}
	sortFunctions(all)
	pkg, file := "", ""
	for _, f := range all {
		if f.Pkg != pkg {
			pkg, file = f.Pkg, ""
			fmt.Fprintf(w, "%s\n", m.rel(pkg))
		}
		if f.File != file {
			file = f.File
			fmt.Fprintf(w, "  %s\n", file)
		}
		tag := ""
		switch {
		case !f.Decl:
			tag = "  (closure)"
		case !inA[f]:
			tag = "  (counted with closures only: a func literal in it ran in the empty session)"
		case !inB[f]:
			tag = "  (counted without closures only: only a func literal in it ran)"
		}
		fmt.Fprintf(w, "    %-40s line %d%s\n", f.Name, f.Line, tag)
	}
}

// jsonFunction is a function in -json's output.
type jsonFunction struct {
	Package string `json:"package"`
	File    string `json:"file"`
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Closure bool   `json:"closure"`
}

// jsonCount is one way of counting in -json's output.
type jsonCount struct {
	Functions int            `json:"functions"`
	Files     int            `json:"files"`
	Packages  int            `json:"packages"`
	ByPackage map[string]int `json:"byPackage"`
	List      []jsonFunction `json:"list"`
}

// WriteJSON writes results as a JSON array, one object for each case.
func (m Module) WriteJSON(w io.Writer, results []Result) error {
	type jsonResult struct {
		Case         string         `json:"case"`
		Chapter      string         `json:"chapter"`
		Request      string         `json:"request"`
		Reply        string         `json:"reply"`
		Functions    jsonCount      `json:"functions"`
		WithClosures jsonCount      `json:"withClosures"`
		ChapterOwn   []jsonFunction `json:"chapterOwn"`
		Unsteady     []jsonFunction `json:"unsteady"`
		Runs         int            `json:"runs"`
		Summary      string         `json:"summary"`
	}
	list := func(fns []*Function) []jsonFunction {
		out := []jsonFunction{}
		for _, f := range fns {
			out = append(out, jsonFunction{Package: m.rel(f.Pkg), File: f.File, Name: f.Name, Line: f.Line, Closure: !f.Decl})
		}
		return out
	}
	count := func(fns []*Function) jsonCount {
		c := m.count(fns)
		by := make(map[string]int)
		for _, p := range c.ByPackage {
			by[p.Package] = p.Functions
		}
		return jsonCount{Functions: c.Functions, Files: c.Files, Packages: c.Packages, ByPackage: by, List: list(fns)}
	}
	out := []jsonResult{}
	for _, r := range results {
		out = append(out, jsonResult{
			Case: r.Case.Name, Chapter: m.rel(r.Chapter), Request: r.Case.Request, Reply: strings.TrimSuffix(r.Reply, "\n"),
			Functions: count(r.Functions), WithClosures: count(r.WithClosures), ChapterOwn: list(r.Main),
			Unsteady: list(r.Unsteady), Runs: r.Runs,
			Summary: m.summary(r),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
