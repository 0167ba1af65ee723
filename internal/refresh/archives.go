package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/txtar"
)

// An archive is a script that pins a main's replies and log: one of
// testdata/scripts/<chapter>/ (chapters/<chapter>'s), or of an SDK module's
// testdata/scripts/<main>/ (sdks/<module>/<main>'s).
type archive struct {
	file   string // the .txtar file
	module string // the folder of the main's module
	main   string // the main's folder; its name is the command the script runs
	key    string // of its inputs, once computed
}

// findArchives returns the archives of the repository at root that pin
// something (a script with no pin command has nothing to refresh).
func findArchives(root string) ([]*archive, error) {
	modules := []struct{ module, scripts, mains string }{{root, filepath.Join(root, "testdata", "scripts"), filepath.Join(root, "chapters")}}
	sdks, err := filepath.Glob(filepath.Join(root, "sdks", "*", "go.mod"))
	if err != nil {
		return nil, err
	}
	for _, gomod := range sdks {
		dir := filepath.Dir(gomod)
		modules = append(modules, struct{ module, scripts, mains string }{dir, filepath.Join(dir, "testdata", "scripts"), dir})
	}
	var out []*archive
	for _, m := range modules {
		files, err := filepath.Glob(filepath.Join(m.scripts, "*", "*.txtar"))
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			if _, pins := inputs(data); pins == 0 {
				continue
			}
			main := filepath.Join(m.mains, filepath.Base(filepath.Dir(file)))
			if _, err := os.Stat(filepath.Join(main, "main.go")); err != nil {
				return nil, fmt.Errorf("%s: no main to run it in %s: a script's folder is named after the main it pins", rel(root, file), rel(root, main))
			}
			out = append(out, &archive{file: file, module: m.module, main: main})
		}
	}
	return out, nil
}

// inputs returns what of an archive its pins are made from, the script and
// every section that no pin command writes, and how many pin commands it
// has.
func inputs(data []byte) (string, int) {
	ar := txtar.Parse(data)
	written := make(map[string]bool)
	for line := range strings.Lines(string(ar.Comment)) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "pin" {
			written[f[2]] = true
		}
	}
	kept := &txtar.Archive{Comment: ar.Comment}
	for _, f := range ar.Files {
		if !written[f.Name] {
			kept.Files = append(kept.Files, f)
		}
	}
	return string(txtar.Format(kept)), len(written)
}

// archiveKey returns the cache key of a's pins: the Go version, the
// sources of the main's test binary (which runs the main) and of this
// generator (which runs the script), and the archive's inputs.
func archiveKey(h *hasher, a *archive, mainFiles, genFiles []string) (string, error) {
	data, err := os.ReadFile(a.file)
	if err != nil {
		return "", err
	}
	in, _ := inputs(data)
	return h.key("archive", []string{rel(h.root, a.file), in}, append(mainFiles, genFiles...))
}

// buildMains compiles the test binary of each main into bin, named as the
// main's folder, as the scripts name the command: go test -c, so that the
// main runs as in its package's own tests (testscript.Main runs main when
// the binary is called by its name), and the pins are those go test -update
// writes: a panic's stack names the package by its import path, not "main".
func buildMains(ctx context.Context, module, bin string, mains []string) error {
	args := []string{"test", "-c", "-o", bin + string(filepath.Separator)}
	for _, m := range mains {
		args = append(args, "./"+filepath.ToSlash(rel(module, m)))
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = module
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), module, err, out)
	}
	for _, m := range mains {
		name := filepath.Join(bin, filepath.Base(m))
		if err := os.Rename(name+".test", name); err != nil {
			return err
		}
	}
	return nil
}

// runArchives runs the scripts of archives, all of one module, with -update's
// pin command, each main's test binary on PATH, and returns the archives
// whose scripts failed, with their logs.
func runArchives(ctx context.Context, module string, archives []*archive) (map[*archive]string, error) {
	bin, err := os.MkdirTemp("", "guide-generate")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(bin)
	var mains []string
	seen := make(map[string]bool)
	for _, a := range archives {
		if !seen[a.main] {
			seen[a.main] = true
			mains = append(mains, a.main)
		}
	}
	if err := buildMains(ctx, module, bin, mains); err != nil {
		return nil, err
	}
	// The exchange command starts the server by its name, on this
	// process's PATH; runArchives runs one module at a time, since the
	// modules' mains share names.
	path := os.Getenv("PATH")
	os.Setenv("PATH", bin+string(os.PathListSeparator)+path)
	defer os.Setenv("PATH", path)

	failed := make(map[*archive]string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	limit := make(chan struct{}, max(4, 2*runtime.NumCPU()))
	for _, a := range archives {
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			p := exchange.Params(filepath.Dir(a.file), "./"+filepath.ToSlash(rel(module, a.main)), true)
			p.Dir, p.Files = "", []string{a.file}
			if log, ok := runScript(rel(module, a.file), p); !ok {
				mu.Lock()
				failed[a] = log
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return failed, nil
}

// refreshArchive brings a's pins up to date from the cache, if it holds
// them: it reports whether it did, and whether the file changed.
func refreshArchive(c *cache, a *archive) (hit, changed bool, err error) {
	want, ok := c.get(a.key)
	if !ok {
		return false, false, nil
	}
	have, err := os.ReadFile(a.file)
	if err != nil || bytes.Equal(have, want) {
		return true, false, err
	}
	return true, true, os.WriteFile(a.file, want, 0o644)
}
