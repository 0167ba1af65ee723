package callpath

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Config is what one run of Measure measures.
type Config struct {
	Chapter string // a directory of the module, relative to its root: chapters/01-tool-errors
	Cases   []Case // the calls, each measured against the same empty sessions
	Runs    int    // how many times each session runs
	Timeout time.Duration
}

// A Result is the measure of one case.
type Result struct {
	Case    Case
	Chapter string // the chapter's import path

	// Functions are the declarations that ran in every session with the
	// call and in no empty session, a func literal's blocks counting
	// for the declaration that holds it. The chapter's own are left out,
	// and so are func literals at package level, which no declaration
	// holds (go tool covdata func leaves them out too).
	Functions []*Function
	// WithClosures are the declarations and func literals, each on its
	// own blocks only, that ran in every session with the call and in no
	// empty session. The chapter's own are left out.
	WithClosures []*Function
	// Main are the chapter's own functions and literals that the call ran,
	// on their own blocks, as for WithClosures; they are not counted.
	Main []*Function
	// Vars are the func literals at package level (each in a var's
	// initializer, which Function.Var names) that ran in every session
	// with the call and in no empty session. They are not counted.
	Vars []*Function
	// Setup are the declarations and package-level func literals, a func
	// literal's blocks counting for the declaration that holds it, that
	// ran in every empty session: what every session runs, the chapter's
	// own included.
	Setup []*Function

	// Unsteady are the functions, declarations and literals on their own
	// blocks, that ran in some of the sessions with the call and not in
	// others, or in some of the empty sessions and not in others: a
	// goroutine that a session's end may or may not let run, say.
	Unsteady []*Function
	// UnsteadyTops are the same, a func literal's blocks counting for the
	// declaration that holds it: the declarations and package-level
	// literals of Functions, Vars and Setup that may or may not be there.
	UnsteadyTops []*Function

	// Reply is the server's stdout in the last session with the call.
	Reply string
	// Runs is how many times each session ran.
	Runs int
}

// Measure builds the chapter with coverage and runs the empty session and
// the session of each case cfg.Runs times each, in a temporary directory it
// removes.
func Measure(ctx context.Context, m Module, cfg Config) ([]Result, error) {
	tmp, err := os.MkdirTemp("", "callpath-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin, err := build(ctx, m, "./"+filepath.ToSlash(cfg.Chapter), tmp)
	if err != nil {
		return nil, err
	}
	runs := max(cfg.Runs, 1)
	var empty [][]block
	for range runs {
		s := &session{Name: "empty"}
		blocks, err := s.covered(ctx, bin, tmp, cfg.Timeout)
		if err != nil {
			return nil, err
		}
		if s.Stdout != "" {
			return nil, fmt.Errorf("session empty: the server wrote on stdout, want nothing; %s", s.exchange())
		}
		empty = append(empty, blocks)
	}
	var results []Result
	for _, c := range cfg.Cases {
		var call [][]block
		var reply string
		for range runs {
			s := &session{Name: c.Name, Input: c.Request + "\n"}
			blocks, err := s.covered(ctx, bin, tmp, cfg.Timeout)
			if err != nil {
				return nil, err
			}
			if err := c.check(s.Stdout); err != nil {
				return nil, fmt.Errorf("session %s: %v\n%s", c.Name, err, s.exchange())
			}
			call, reply = append(call, blocks), s.Stdout
		}
		r, err := difference(m, path.Join(m.Path, cfg.Chapter), call, empty)
		if err != nil {
			return nil, fmt.Errorf("session %s: %v", c.Name, err)
		}
		r.Case, r.Reply, r.Runs = c, reply, runs
		results = append(results, r)
	}
	return results, nil
}

// covered runs s and returns the blocks that ran.
func (s *session) covered(ctx context.Context, bin, tmp string, timeout time.Duration) ([]block, error) {
	profile, err := s.run(ctx, bin, tmp, timeout)
	if err != nil {
		return nil, err
	}
	blocks, err := parseProfile(profile)
	if err != nil {
		return nil, fmt.Errorf("session %s: %v", s.Name, err)
	}
	return blocks, nil
}

// ran is what one session ran: the declarations (a func literal's blocks
// counting for the declaration holding it), and each function, declaration
// or literal, on its own blocks.
type ran struct {
	tops, own map[*Function]bool
}

// difference attributes the covered blocks of the sessions with the call
// and of the empty ones to their functions, and returns what every session
// with the call ran and no empty session did. chapter is the chapter's
// import path.
func difference(m Module, chapter string, call, empty [][]block) (Result, error) {
	x := newIndex(m)
	if err := x.load(append(append([][]block(nil), call...), empty...)...); err != nil {
		return Result{}, err
	}
	sessions := func(runs [][]block) ([]ran, error) {
		var out []ran
		for _, blocks := range runs {
			r := ran{make(map[*Function]bool), make(map[*Function]bool)}
			for _, b := range blocks {
				f, err := x.functionOf(b)
				if err != nil {
					return nil, err
				}
				r.own[f], r.tops[f.Top] = true, true
			}
			out = append(out, r)
		}
		return out, nil
	}
	callRan, err := sessions(call)
	if err != nil {
		return Result{}, err
	}
	emptyRan, err := sessions(empty)
	if err != nil {
		return Result{}, err
	}
	every := func(rs []ran, set func(ran) map[*Function]bool, f *Function) bool {
		for _, r := range rs {
			if !set(r)[f] {
				return false
			}
		}
		return true
	}
	some := func(rs []ran, set func(ran) map[*Function]bool, f *Function) bool {
		for _, r := range rs {
			if set(r)[f] {
				return true
			}
		}
		return false
	}
	tops := func(r ran) map[*Function]bool { return r.tops }
	own := func(r ran) map[*Function]bool { return r.own }
	res := Result{Chapter: chapter}
	all, allTops := make(map[*Function]bool), make(map[*Function]bool)
	for _, r := range append(append([]ran(nil), callRan...), emptyRan...) {
		maps.Copy(all, r.own)
		maps.Copy(allTops, r.tops)
	}
	for f := range allTops {
		if some(callRan, tops, f) != every(callRan, tops, f) || some(emptyRan, tops, f) != every(emptyRan, tops, f) {
			res.UnsteadyTops = append(res.UnsteadyTops, f)
		}
		switch {
		case every(emptyRan, tops, f):
			res.Setup = append(res.Setup, f)
		case !every(callRan, tops, f) || some(emptyRan, tops, f) || f.Pkg == chapter:
		case f.Decl:
			res.Functions = append(res.Functions, f)
		default:
			res.Vars = append(res.Vars, f)
		}
	}
	for f := range all {
		if some(callRan, own, f) != every(callRan, own, f) || some(emptyRan, own, f) != every(emptyRan, own, f) {
			res.Unsteady = append(res.Unsteady, f)
		}
		if !every(callRan, own, f) || some(emptyRan, own, f) {
			continue
		}
		if f.Pkg == chapter {
			res.Main = append(res.Main, f)
		} else {
			res.WithClosures = append(res.WithClosures, f)
		}
	}
	for _, list := range [][]*Function{res.Functions, res.WithClosures, res.Main, res.Vars, res.Setup, res.Unsteady, res.UnsteadyTops} {
		sortFunctions(list)
	}
	return res, nil
}

// Counts are the number of functions, files and packages of a list.
type Counts struct {
	Functions, Files, Packages int
	ByPackage                  []pkgCount // in the order of the packages' paths
}

type pkgCount struct {
	Package   string // relative to the module path
	Functions int
}

// count counts fns, sorted as sortFunctions sorts them.
func (m Module) count(fns []*Function) Counts {
	var c Counts
	files := make(map[string]bool)
	for _, f := range fns {
		c.Functions++
		files[f.Pkg+"/"+f.File] = true
		pkg := m.rel(f.Pkg)
		if n := len(c.ByPackage); n == 0 || c.ByPackage[n-1].Package != pkg {
			c.ByPackage = append(c.ByPackage, pkgCount{Package: pkg})
		}
		c.ByPackage[len(c.ByPackage)-1].Functions++
	}
	c.Files, c.Packages = len(files), len(c.ByPackage)
	return c
}

// rel returns an import path of the module relative to the module's path.
func (m Module) rel(importPath string) string {
	if r, ok := strings.CutPrefix(importPath, m.Path+"/"); ok {
		return r
	}
	return importPath
}
