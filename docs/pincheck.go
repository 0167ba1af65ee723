package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/site"
	"github.com/rogpeppe/go-internal/txtar"
)

// pinCheck finds, while the guide is served, the transcripts whose chapter
// no longer answers as pinned, so that their pages mark them before anyone
// presses Run. When the chapters' sources or scripts change it builds the
// chapters and, for each whose binary or archives changed, replays every
// case its archives pin replies for, as the exchange command does
// ([exchange.Replay]), keeping what the chapter answered. [pinCheck.stale]
// compares those answers with the pins as they are at each build, so that
// refreshed pins (go generate ./...) lose their mark at once. Only the
// replies are compared, not the log pins, which the pages do not show;
// a case the script runs with "! exchange" is left to the tests (the
// guide's chapters have none).
type pinCheck struct {
	root string
	poke chan struct{} // a check is wanted; see changed

	mu      sync.Mutex
	answers map[string]answer // by transcript key, archive#case
	sums    map[string][32]byte
	version int // counts the checks that changed answers
	// wanted counts the calls of changed, done those a finished check
	// answered: a check is pending or running while done < wanted.
	wanted, done int
}

// answer is what a chapter answered to one case of its archives.
type answer struct {
	chapter  string // chapters/01-tool-errors
	archive  string // testdata/scripts/01-tool-errors/modern.txtar
	name     string // the case
	requests []byte // req/<name>.jsonl as sent
	stdout   string // what the exchange command would print
	err      error  // why the exchange command would fail
}

func newPinCheck(root string) *pinCheck {
	return &pinCheck{root: root, poke: make(chan struct{}, 1), answers: make(map[string]answer), sums: make(map[string][32]byte)}
}

// changed asks for a check of the chapters' pins; a nil pinCheck checks
// nothing.
func (c *pinCheck) changed() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.wanted++
	c.mu.Unlock()
	select {
	case c.poke <- struct{}{}:
	default: // one is pending already
	}
}

// run checks the pins each time changed is called, until ctx ends; it says
// on log what it finds. The chapters' binaries live in a temporary folder
// meanwhile.
func (c *pinCheck) run(ctx context.Context, log io.Writer) {
	bin, err := os.MkdirTemp("", "guide-pins")
	if err != nil {
		fmt.Fprintf(log, "The chapters' pins are not checked: %v\n", err)
		return
	}
	defer os.RemoveAll(bin)
	built := make(map[string]string) // the key of each chapter's binary in bin
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.poke:
		}
		c.mu.Lock()
		wanted := c.wanted
		c.mu.Unlock()
		if err := c.check(ctx, log, bin, built); err != nil && ctx.Err() == nil {
			fmt.Fprintf(log, "The chapters' pins are not checked: %v\n", err)
		}
		c.mu.Lock()
		c.done = wanted
		c.mu.Unlock()
	}
}

// busy reports whether a check is pending or running; false for a nil
// pinCheck.
func (c *pinCheck) busy() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done < c.wanted
}

// check builds into bin the chapters whose packages changed since they
// were built there (built holds the key they were built from), and replays
// the cases of each chapter whose binary or archives changed since the
// last check.
func (c *pinCheck) check(ctx context.Context, log io.Writer, bin string, built map[string]string) error {
	chapters, err := site.ChapterDirs(os.DirFS(c.root))
	if err != nil || len(chapters) == 0 {
		return err
	}
	keys, err := chapterKeys(ctx, c.root, chapters)
	if err != nil {
		return err
	}
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for _, ch := range chapters {
		if built[ch] != keys[ch] {
			args = append(args, "./"+ch)
			delete(built, ch)
		}
	}
	if len(args) > 3 {
		if _, err := goOutput(ctx, c.root, nil, args...); err != nil {
			return err
		}
		for _, ch := range chapters {
			built[ch] = keys[ch]
		}
	}
	for _, ch := range chapters {
		archives, sum, err := c.inputs(ch, keys[ch])
		if err != nil {
			return err
		}
		c.mu.Lock()
		same := c.sums[ch] == sum
		c.mu.Unlock()
		if same {
			continue
		}
		got, err := replayChapter(ctx, ch, filepath.Join(bin, path.Base(ch)), archives, bin)
		if err != nil {
			return err
		}
		c.mu.Lock()
		changed := false
		for key, a := range c.answers {
			if _, ok := got[key]; a.chapter == ch && !ok {
				delete(c.answers, key)
				changed = true
			}
		}
		for key, a := range got {
			if old, ok := c.answers[key]; !ok || !sameAnswer(old, a) {
				c.answers[key] = a
				changed = true
			}
		}
		if changed {
			c.version++
		}
		c.sums[ch] = sum
		c.mu.Unlock()
		stale := 0
		for key := range c.stale() {
			if got[key].chapter == ch {
				stale++
			}
		}
		fmt.Fprintf(log, "Checked the pins of %s: %d case(s), %d stale%s.\n", ch, len(got), stale,
			map[bool]string{true: " (marked on their pages; " + exchange.RefreshCommand + " refreshes them)"}[stale > 0])
	}
	return nil
}

// chapterKeys returns, for each chapter, a key that changes when its
// binary would: the compiled packages it links, which Go's build cache
// names by content. Listing them compiles what changed, but links nothing.
func chapterKeys(ctx context.Context, root string, chapters []string) (map[string]string, error) {
	args := []string{"list", "-deps", "-export", "-json=ImportPath,Export,Deps"}
	for _, ch := range chapters {
		args = append(args, "./"+ch)
	}
	out, err := goOutput(ctx, root, nil, args...)
	if err != nil {
		return nil, err
	}
	type pkg struct {
		ImportPath, Export string
		Deps               []string
	}
	export := make(map[string]string)
	var listed []pkg
	for dec := json.NewDecoder(strings.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		export[p.ImportPath] = p.Export
		listed = append(listed, p)
	}
	keys := make(map[string]string)
	for _, p := range listed {
		for _, ch := range chapters {
			if strings.HasSuffix(p.ImportPath, "/"+ch) {
				h := sha256.New()
				for _, dep := range append([]string{p.ImportPath}, p.Deps...) {
					fmt.Fprintf(h, "%s %s\n", dep, export[dep])
				}
				keys[ch] = fmt.Sprintf("%x", h.Sum(nil))
			}
		}
	}
	return keys, nil
}

// inputs reads the archives of chapter ch, by path, and sums them with the
// key of the chapter's binary.
func (c *pinCheck) inputs(ch, key string) (map[string][]byte, [32]byte, error) {
	h := sha256.New()
	h.Write([]byte(key))
	names, err := filepath.Glob(filepath.Join(c.root, "testdata", "scripts", path.Base(ch), "*.txtar"))
	if err != nil {
		return nil, [32]byte{}, err
	}
	archives := make(map[string][]byte)
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, [32]byte{}, err
		}
		rel, _ := filepath.Rel(c.root, name)
		archives[filepath.ToSlash(rel)] = b
		fmt.Fprintf(h, "\n%s %d\n", rel, len(b))
		h.Write(b)
	}
	return archives, [32]byte(h.Sum(nil)), nil
}

// replayChapter runs the chapter's binary exe on every case of its
// archives that pins replies, in the folder work, and returns what it
// answered, by transcript key.
func replayChapter(ctx context.Context, ch, exe string, archives map[string][]byte, work string) (map[string]answer, error) {
	got := make(map[string]answer)
	for archive, src := range archives {
		a := txtar.Parse(src)
		files := make(map[string][]byte)
		for _, f := range a.Files {
			files[f.Name] = f.Data
		}
		for line := range strings.Lines(string(a.Comment)) {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "exchange" || f[2] != path.Base(ch) {
				continue // "! exchange", abort and the rest are the tests' to check
			}
			name, ok := strings.CutPrefix(strings.TrimSuffix(f[1], ".jsonl"), "req/")
			if _, pinned := files["want/"+name+".jsonl"]; !ok || !pinned || files[f[1]] == nil {
				continue
			}
			var stdout bytes.Buffer
			err := exchange.Replay(ctx, append([]string{exe}, f[3:]...), strings.Split(string(files[f[1]]), "\n"), work, &stdout, io.Discard)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			got[archive+"#"+name] = answer{chapter: ch, archive: archive, name: name, requests: files[f[1]], stdout: stdout.String(), err: err}
		}
	}
	return got, nil
}

// sameAnswer reports whether two answers are alike.
func sameAnswer(a, b answer) bool {
	return a.archive == b.archive && a.name == b.name && bytes.Equal(a.requests, b.requests) &&
		a.stdout == b.stdout && fmt.Sprint(a.err) == fmt.Sprint(b.err)
}

// checked returns the number of checks that changed answers; 0 for a nil
// pinCheck.
func (c *pinCheck) checked() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// stale returns the transcripts whose pinned replies differ from what their
// chapter answered at the last check, by key, with what differs: the
// answers compared with the archives as they are now, those whose
// requests changed since left out until the next check. It returns nil
// for a nil pinCheck.
func (c *pinCheck) stale() map[string]site.StalePin {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	stale := make(map[string]site.StalePin)
	archives := make(map[string]map[string][]byte)
	for key, a := range c.answers {
		files, ok := archives[a.archive]
		if !ok {
			files = make(map[string][]byte)
			if ar, err := txtar.ParseFile(filepath.Join(c.root, filepath.FromSlash(a.archive))); err == nil {
				for _, f := range ar.Files {
					files[f.Name] = f.Data
				}
			}
			archives[a.archive] = files
		}
		want, pinned := files["want/"+a.name+".jsonl"]
		if !pinned || !bytes.Equal(files["req/"+a.name+".jsonl"], a.requests) {
			continue
		}
		pkg := "./" + a.chapter
		var detail string
		switch {
		case a.err != nil:
			detail = fmt.Sprintf("case %s: the exchange fails: %v\nThe chapter's test fails the same way: go test %s", a.name, a.err, pkg)
		case string(want) != a.stdout:
			detail = exchange.Stale(a.name, "stdout", "want/"+a.name+".jsonl", string(want), a.stdout, pkg)
		default:
			continue
		}
		stale[key] = site.StalePin{Command: exchange.RefreshCommand, Detail: a.archive + ": " + detail}
	}
	return stale
}

// staleStamp summarizes stale for a build's name, so that a change of marks
// is a new build, which the open pages reload; "" when none is stale.
func staleStamp(stale map[string]site.StalePin) string {
	if len(stale) == 0 {
		return ""
	}
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(stale)) {
		fmt.Fprintf(h, "%s\n%s\n", k, stale[k].Detail)
	}
	return fmt.Sprintf("+stale-%x", h.Sum(nil)[:6])
}
