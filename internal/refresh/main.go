package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("go generate: ")
	all := flag.Bool("all", false, "run every script and test, as if the cache were empty")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		log.Fatal(err)
	}
	if err := generate(context.Background(), root, *all, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// moduleRoot returns the guide's module root: the nearest folder with a
// go.mod from the working folder up (go generate runs this command in its
// package's folder).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working folder: run go generate ./... in the guide's repository")
		}
		dir = parent
	}
}

// generate refreshes what is derived from the code in the repository at
// root, running only what the cache does not hold, or everything if all
// is set, and says on w what it ran and wrote.
func generate(ctx context.Context, root string, all bool, w io.Writer) error {
	start := time.Now()
	c, err := openCache()
	if err != nil {
		return err
	}
	defer c.trim()
	archives, err := findArchives(root)
	if err != nil {
		return err
	}
	listings, err := listModules(ctx, root, archives)
	if err != nil {
		return err
	}
	h := &hasher{root: root}
	rootList := listings[root]
	self, err := rootList.byDir(filepath.Join(root, "internal", "refresh"), false)
	if err != nil {
		return err
	}
	genFiles, err := rootList.files(root, self)
	if err != nil {
		return err
	}

	var stale []*archive
	var wrote []string
	var chapterFiles []string
	for _, a := range archives {
		l := listings[a.module]
		path, err := l.byDir(a.main, true)
		if err != nil {
			return err
		}
		mainFiles, err := l.files(root, path)
		if err != nil {
			return err
		}
		if a.module == root {
			chapterFiles = append(chapterFiles, mainFiles...)
		}
		if a.key, err = archiveKey(h, a, mainFiles, genFiles); err != nil {
			return err
		}
		hit, changed := false, false
		if !all {
			if hit, changed, err = refreshArchive(c, a); err != nil {
				return err
			}
		}
		if changed {
			wrote = append(wrote, rel(root, a.file)+" (from the cache)")
		}
		if !hit {
			stale = append(stale, a)
		}
	}

	var staleSteps []step
	for _, s := range steps {
		key, err := s.key(h, rootList, chapterFiles)
		if err != nil {
			return err
		}
		if _, ok := c.get(key); all || !ok {
			staleSteps = append(staleSteps, s)
		}
	}

	var mu sync.Mutex
	var errs []error
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		before := contents(stale)
		for _, group := range byModule(stale) {
			failed, err := runArchives(ctx, group[0].module, group)
			if err != nil {
				fail(err)
				continue
			}
			for _, a := range group {
				if log, ok := failed[a]; ok {
					fail(fmt.Errorf("%s: the script failed, so its pins are not all refreshed:\n%s", rel(root, a.file), log))
					continue
				}
				data, err := os.ReadFile(a.file)
				if err == nil {
					err = c.put(a.key, data)
				}
				if err != nil {
					fail(err)
					continue
				}
				if string(data) != before[a] {
					mu.Lock()
					wrote = append(wrote, rel(root, a.file))
					mu.Unlock()
				}
			}
		}
	})
	for _, s := range staleSteps {
		wg.Go(func() {
			if err := s.run(ctx, root, environ); err != nil {
				fail(err)
				return
			}
			var files []string
			for _, f := range s.files {
				files = append(files, filepath.Join(root, filepath.FromSlash(f)))
			}
			h.forget(files)
			key, err := s.key(h, rootList, chapterFiles)
			if err == nil {
				err = c.put(key, []byte("go "+strings.Join(s.command(), " ")+"\n"))
			}
			if err != nil {
				fail(err)
			}
		})
	}
	wg.Wait()

	slices.Sort(wrote)
	for _, name := range wrote {
		fmt.Fprintf(w, "wrote %s\n", name)
	}
	if len(stale) > 0 || len(staleSteps) > 0 {
		var ran []string
		for _, s := range staleSteps {
			ran = append(ran, "go "+strings.Join(s.command(), " "))
		}
		rest := ""
		if len(stale) < len(archives) {
			rest = fmt.Sprintf("; the other scripts' inputs are as when they last ran (the cache: %s)", c.dir)
		}
		fmt.Fprintf(w, "ran %d of %d scripts of pins%s in %.1fs%s\n",
			len(stale), len(archives), strings.Join(append([]string{""}, ran...), ", "), time.Since(start).Seconds(), rest)
	}
	return errors.Join(errs...)
}

// listModules lists the packages of the modules of archives, and of the
// root's module those of the chapters, the steps and this command, with go
// list, one module at a time in parallel.
func listModules(ctx context.Context, root string, archives []*archive) (map[string]listing, error) {
	patterns := map[string][]string{root: {"./chapters/...", "./internal/refresh"}}
	for _, s := range steps {
		patterns[root] = append(patterns[root], s.pkg)
	}
	for _, a := range archives {
		if a.module != root {
			patterns[a.module] = []string{"./..."}
		}
	}
	var mu sync.Mutex
	var errs []error
	listings := make(map[string]listing)
	var wg sync.WaitGroup
	for module, pats := range patterns {
		wg.Go(func() {
			l, err := list(ctx, module, pats)
			mu.Lock()
			defer mu.Unlock()
			listings[module] = l
			errs = append(errs, err)
		})
	}
	wg.Wait()
	return listings, errors.Join(errs...)
}

// byModule groups archives by module, the root's first.
func byModule(archives []*archive) [][]*archive {
	groups := make(map[string][]*archive)
	for _, a := range archives {
		groups[a.module] = append(groups[a.module], a)
	}
	var out [][]*archive
	for _, g := range groups {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b []*archive) int { return cmp.Compare(a[0].module, b[0].module) })
	return out
}

// contents returns the files of archives as they are now.
func contents(archives []*archive) map[*archive]string {
	m := make(map[*archive]string)
	for _, a := range archives {
		b, _ := os.ReadFile(a.file)
		m[a] = string(b)
	}
	return m
}

// rel returns name relative to root, with slashes.
func rel(root, name string) string {
	r, err := filepath.Rel(root, name)
	if err != nil {
		return name
	}
	return filepath.ToSlash(r)
}
