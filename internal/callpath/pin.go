package callpath

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// PinFile is where go generate ./... writes the pin, from the module's
// root, and where the docs build reads it.
const PinFile = "internal/callpath/walks.json"

// PinRuns is how many times MeasurePin runs each session when it writes
// the pin.
const PinRuns = 10

// A Pin is the measured path of every case of [Cases], as data: what the
// page that walks one call through the core is held to. Functions are
// named as a :::go line of the docs names them (Type.Method, a generic
// type without its parameters, a package-level func literal by the var
// that holds it) and their files from the module's root; nothing in it
// holds a line number, so an edit that moves code leaves it current and
// only a change of what runs makes it stale.
type Pin struct {
	// Command is what writes the pin: go generate ./...
	Command string `json:"command"`
	// Core are the packages of the module that the measured chapters
	// import, from the module's root: mcp and its internal packages.
	Core     []string     `json:"core"`
	Chapters []PinChapter `json:"chapters"`
}

// A PinChapter is the measure of one chapter's cases.
type PinChapter struct {
	Chapter string `json:"chapter"` // chapters/01-tool-errors
	// Setup ran in every session, the empty one too: flag parsing, the
	// server's setup, the read loop starting and ending. The chapter's
	// own functions are among them.
	Setup []PinFunc `json:"setup"`
	// Unsteady ran in some sessions of a kind and not in others (a timer
	// that a session's end may or may not let fire): the comparison of
	// two pins and the docs leave them out. A function stays here while
	// its file declares it, however the next measure sees it, so that a
	// quiet machine's measure cannot make a busy machine's fail.
	Unsteady []PinFunc `json:"unsteady"`
	Cases    []PinCase `json:"cases"`
}

// A PinCase is the path of one call.
type PinCase struct {
	Name    string `json:"name"`
	Request string `json:"request"`
	Reply   string `json:"reply"`
	// Functions are the declarations the call runs beyond the empty
	// session, a func literal's blocks counting for the declaration that
	// holds it, the chapter's own left out: what the counts count.
	Functions []PinFunc `json:"functions"`
	// Vars are the func literals at package level that it runs beyond
	// the empty session, by the var whose initializer holds them.
	Vars []PinFunc `json:"vars"`
	// Own are the chapter's own functions it runs beyond the empty
	// session: the handler.
	Own []PinFunc `json:"own"`
	// WithClosures are the declarations and func literals, each on its
	// own blocks, that it runs beyond the empty session, named as a
	// stack trace names them ((*Server).runTool.func1).
	WithClosures []PinFunc `json:"withClosures"`
}

// A PinFunc is one function of a pin. Its JSON is one string, its file
// and its name: "mcp/tool.go Server.callTool".
type PinFunc struct {
	File string // from the module's root: mcp/tool.go
	Name string // as :::go names it: Server.callTool, bufPool
}

func (f PinFunc) String() string { return f.Name + " (" + f.File + ")" }

// compare orders functions by file, then name, so that the pin changes
// only when what runs does.
func (f PinFunc) compare(g PinFunc) int {
	return cmp.Or(strings.Compare(f.File, g.File), strings.Compare(f.Name, g.Name))
}

// MarshalText returns "FILE NAME".
func (f PinFunc) MarshalText() ([]byte, error) { return []byte(f.File + " " + f.Name), nil }

// UnmarshalText reads "FILE NAME".
func (f *PinFunc) UnmarshalText(b []byte) error {
	file, name, ok := strings.Cut(string(b), " ")
	if !ok || file == "" || name == "" {
		return fmt.Errorf("function %q: want \"FILE NAME\"", b)
	}
	f.File, f.Name = file, name
	return nil
}

// Count is how many functions, files and packages a list holds.
type Count struct {
	Functions, Files, Packages int
}

// CountFuncs counts fns: their files, and their packages (the
// directories of their files).
func CountFuncs(fns []PinFunc) Count {
	files, pkgs := make(map[string]bool), make(map[string]bool)
	for _, f := range fns {
		files[f.File], pkgs[path.Dir(f.File)] = true, true
	}
	return Count{len(fns), len(files), len(pkgs)}
}

// Cap is what one stdio tools/call success of chapter 01 may run: at most
// this many functions, files and packages, as Functions counts them.
var Cap = Count{Functions: 48, Files: 8, Packages: 3}

// Summary returns the line that ends callpath's output for c, from the
// pin's counts.
func (c *PinCase) Summary() string {
	return summaryLine(c.Name, CountFuncs(c.Functions), CountFuncs(c.WithClosures))
}

// Case returns the pinned case called name, and its chapter.
func (p *Pin) Case(name string) (*PinCase, *PinChapter) {
	for i := range p.Chapters {
		ch := &p.Chapters[i]
		for j := range ch.Cases {
			if ch.Cases[j].Name == name {
				return &ch.Cases[j], ch
			}
		}
	}
	return nil, nil
}

// CaseNames lists the pinned cases, for messages.
func (p *Pin) CaseNames() []string {
	var names []string
	for _, ch := range p.Chapters {
		for _, c := range ch.Cases {
			names = append(names, c.Name)
		}
	}
	return names
}

// ReadPin reads the pin in the file name of fsys ([PinFile] of the
// module's root).
func ReadPin(fsys fs.FS, name string) (*Pin, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("reading the measured path: %w (go generate ./... writes it)", err)
	}
	var p Pin
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %v (go generate ./... writes it again)", name, err)
	}
	return &p, nil
}

// Marshal returns the pin as its file holds it.
func (p *Pin) Marshal() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		panic(err) // strings and slices only
	}
	return b.Bytes()
}

// MeasurePin measures every case of [Cases], runs times each session, and
// returns the pin. Functions old lists as unsteady stay so while their
// files declare them (see PinChapter.Unsteady); old may be nil.
func MeasurePin(ctx context.Context, m Module, runs int, old *Pin) (*Pin, error) {
	p := &Pin{Command: "go generate ./..."}
	chapters := PinnedChapters()
	core, err := corePackages(ctx, m, chapters)
	if err != nil {
		return nil, err
	}
	p.Core = core
	x := newIndex(m)
	for _, chapter := range chapters {
		cs, err := SelectCases(path.Base(chapter), "all")
		if err != nil {
			return nil, err
		}
		results, err := Measure(ctx, m, Config{Chapter: chapter, Cases: cs, Runs: runs, Timeout: 30 * time.Second})
		if err != nil {
			return nil, err
		}
		pc := PinChapter{Chapter: chapter}
		unsteady := make(map[PinFunc]bool)
		if old != nil {
			for _, och := range old.Chapters {
				if och.Chapter != chapter {
					continue
				}
				for _, f := range och.Unsteady {
					if declared, err := x.declares(m, f); err == nil && declared {
						unsteady[f] = true
					}
				}
			}
		}
		for _, r := range results {
			for _, f := range append(slices.Clone(r.UnsteadyTops), r.Unsteady...) {
				unsteady[m.pinFunc(f)] = true
			}
		}
		keep := func(fns []*Function) []PinFunc {
			out := []PinFunc{}
			for _, f := range fns {
				if pf := m.pinFunc(f); !unsteady[pf] && !slices.Contains(out, pf) {
					out = append(out, pf)
				}
			}
			slices.SortFunc(out, PinFunc.compare)
			return out
		}
		pc.Setup = keep(results[0].Setup)
		for _, r := range results {
			pc.Cases = append(pc.Cases, PinCase{
				Name: r.Case.Name, Request: r.Case.Request, Reply: strings.TrimSuffix(r.Reply, "\n"),
				Functions: keep(r.Functions), Vars: keep(r.Vars), Own: keep(r.Main), WithClosures: keep(r.WithClosures),
			})
		}
		pc.Unsteady = []PinFunc{}
		for f := range unsteady {
			pc.Unsteady = append(pc.Unsteady, f)
		}
		slices.SortFunc(pc.Unsteady, PinFunc.compare)
		p.Chapters = append(p.Chapters, pc)
	}
	return p, nil
}

// PinnedChapters lists the chapters of [Cases], from the module's root.
func PinnedChapters() []string {
	var chapters []string
	for _, c := range Cases {
		if ch := "chapters/" + c.Chapter; !slices.Contains(chapters, ch) {
			chapters = append(chapters, ch)
		}
	}
	return chapters
}

// pinFunc names f as a pin does: its file from the module's root, and the
// name a :::go line gives it (a declaration's, without the pointer and
// type parameters; a package-level func literal's var). A func literal in
// a declaration keeps its stack-trace name, which no :::go line takes.
func (m Module) pinFunc(f *Function) PinFunc {
	name := f.Name
	switch {
	case f.Var != "":
		name = f.Var
	case f.Decl:
		name = strings.NewReplacer("(*", "", ")", "", "[...]", "").Replace(name)
	}
	return PinFunc{File: m.rel(f.Pkg) + "/" + f.File, Name: name}
}

// declares reports whether f's file still declares f.
func (x *index) declares(m Module, f PinFunc) (bool, error) {
	fns, err := x.parse(m.Path + "/" + f.File)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(fns, func(g *Function) bool { return m.pinFunc(g) == f }), nil
}

// corePackages lists the packages of the module, other than the chapters,
// that the chapters import, from the module's root.
func corePackages(ctx context.Context, m Module, chapters []string) ([]string, error) {
	args := []string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "--"}
	for _, ch := range chapters {
		args = append(args, "./"+ch)
	}
	out, err := goCmd(ctx, m.Dir, args...)
	if err != nil {
		return nil, err
	}
	var core []string
	for line := range strings.Lines(out) {
		rel, ok := strings.CutPrefix(strings.TrimSpace(line), m.Path+"/")
		if ok && !strings.HasPrefix(rel, "chapters/") {
			core = append(core, rel)
		}
	}
	slices.Sort(core)
	return core, nil
}

// Diff says how p differs from want, one line per difference, leaving out
// the functions either lists as unsteady; nil if they agree.
func (p *Pin) Diff(want *Pin) []string {
	var diffs []string
	if !slices.Equal(p.Core, want.Core) {
		diffs = append(diffs, fmt.Sprintf("core packages: %v, want %v", p.Core, want.Core))
	}
	for _, wch := range want.Chapters {
		i := slices.IndexFunc(p.Chapters, func(c PinChapter) bool { return c.Chapter == wch.Chapter })
		if i < 0 {
			diffs = append(diffs, fmt.Sprintf("%s: not measured", wch.Chapter))
			continue
		}
		ch := p.Chapters[i]
		exempt := make(map[PinFunc]bool)
		for _, f := range append(slices.Clone(ch.Unsteady), wch.Unsteady...) {
			exempt[f] = true
		}
		list := func(what string, got, want []PinFunc) {
			for _, f := range got {
				if !exempt[f] && !slices.Contains(want, f) {
					diffs = append(diffs, fmt.Sprintf("%s: %s: runs %s", wch.Chapter, what, f))
				}
			}
			for _, f := range want {
				if !exempt[f] && !slices.Contains(got, f) {
					diffs = append(diffs, fmt.Sprintf("%s: %s: no longer runs %s", wch.Chapter, what, f))
				}
			}
		}
		list("setup", ch.Setup, wch.Setup)
		for _, wc := range wch.Cases {
			j := slices.IndexFunc(ch.Cases, func(c PinCase) bool { return c.Name == wc.Name })
			if j < 0 {
				diffs = append(diffs, fmt.Sprintf("%s: case %s: not measured", wch.Chapter, wc.Name))
				continue
			}
			c := ch.Cases[j]
			if c.Request != wc.Request || c.Reply != wc.Reply {
				diffs = append(diffs, fmt.Sprintf("%s: case %s: sent %s, got %s; the pin has %s, %s", wch.Chapter, wc.Name, c.Request, c.Reply, wc.Request, wc.Reply))
			}
			list("case "+wc.Name, c.Functions, wc.Functions)
			list("case "+wc.Name+", vars", c.Vars, wc.Vars)
			list("case "+wc.Name+", the chapter's own", c.Own, wc.Own)
			list("case "+wc.Name+", with closures", c.WithClosures, wc.WithClosures)
		}
		for _, c := range ch.Cases {
			if !slices.ContainsFunc(wch.Cases, func(w PinCase) bool { return w.Name == c.Name }) {
				diffs = append(diffs, fmt.Sprintf("%s: case %s: measured, not pinned", wch.Chapter, c.Name))
			}
		}
	}
	for _, ch := range p.Chapters {
		if !slices.ContainsFunc(want.Chapters, func(w PinChapter) bool { return w.Chapter == ch.Chapter }) {
			diffs = append(diffs, fmt.Sprintf("%s: measured, not pinned", ch.Chapter))
		}
	}
	return diffs
}
