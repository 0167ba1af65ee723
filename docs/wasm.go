package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/site"
)

// compileBrowser compiles the main of every chapter with transcripts for the
// browser (GOOS=js GOARCH=wasm), as the Run buttons need it, and takes
// wasm_exec.js from the Go toolchain that compiles them. It says on progress
// what it is doing, since a first build takes minutes. One go list names
// what each chapter is linked from and one go build links the chapters that
// changed, side by side; an unchanged chapter comes from the cache.
func compileBrowser(ctx context.Context, root string, progress io.Writer) (*site.Browser, error) {
	chapters, err := site.ChapterDirs(os.DirFS(root))
	if err != nil {
		return nil, err
	}
	if err := recordSources(ctx, root, chapters); err != nil {
		return nil, err
	}
	support, err := wasmExec(ctx, root)
	if err != nil {
		return nil, err
	}
	cache, err := wasmCacheDir()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	keys, err := moduleKeys(ctx, root, chapters)
	if err != nil {
		return nil, err
	}
	b := &site.Browser{Modules: make(map[string][]byte), WasmExec: support}
	var stale []string
	for _, chapter := range chapters {
		file := moduleFile(cache, chapter, keys[chapter])
		if wasm, err := os.ReadFile(file); err == nil {
			b.Modules[chapter] = wasm
			now := time.Now()
			os.Chtimes(file, now, now) // used: pruned last
		} else {
			stale = append(stale, chapter)
		}
	}
	if len(stale) == 0 {
		return b, nil
	}
	fmt.Fprintf(progress, "Compiling %s for the browser (GOOS=js GOARCH=wasm)...", strings.Join(stale, ", "))
	if err := linkModules(ctx, root, cache, stale, keys); err != nil {
		fmt.Fprintln(progress)
		return nil, err
	}
	size := 0
	for _, chapter := range stale {
		wasm, err := os.ReadFile(moduleFile(cache, chapter, keys[chapter]))
		if err != nil {
			fmt.Fprintln(progress)
			return nil, err
		}
		b.Modules[chapter] = wasm
		size += len(wasm)
	}
	fmt.Fprintf(progress, " %.1f MB in %.1fs; %d unchanged, from the cache\n", float64(size)/1e6, time.Since(start).Seconds(), len(chapters)-len(stale))
	return b, nil
}

// recordSources opens the sources in this module of the chapters' browser
// builds: the docs tests compile the chapters through compileBrowser, in a
// go subprocess that go test's cache does not see, so that a change to a
// chapter or to mcp/ runs them again rather than reporting "ok (cached)"
// (see chapterproc.Record). Outside a test it does nothing.
func recordSources(ctx context.Context, root string, chapters []string) error {
	if !testing.Testing() {
		return nil
	}
	var pkgs []string
	for _, ch := range chapters {
		pkgs = append(pkgs, "./"+ch)
	}
	sources, err := chapterproc.ModuleSources(ctx, root, wasmEnv, pkgs...)
	if err != nil {
		return err
	}
	return chapterproc.Record(sources)
}

// wasmEnv is the environment of the browser builds.
var wasmEnv = []string{"GOOS=js", "GOARCH=wasm"}

// wasmFlags are the go build flags of the browser modules: -trimpath keeps
// the machine's paths out of what the site ships, -s -w its symbol tables.
var wasmFlags = []string{"-trimpath", "-ldflags=-s -w"}

// moduleKeys returns the key each chapter's module is kept under in the
// cache: the Go version, the build flags and the compiled packages the
// chapter is linked from, which Go's build cache names by content, so that
// an unchanged chapter is not linked again. One go list -export compiles
// what changed, for every chapter at once.
func moduleKeys(ctx context.Context, root string, chapters []string) (map[string]string, error) {
	args := append(append([]string{"list"}, wasmFlags...), "-deps", "-export", "-json=ImportPath,Dir,Export,Deps")
	for _, ch := range chapters {
		args = append(args, "./"+ch)
	}
	out, err := goOutput(ctx, root, wasmEnv, args...)
	if err != nil {
		return nil, err
	}
	type pkg struct {
		ImportPath, Dir, Export string
		Deps                    []string
	}
	exports := make(map[string]string)
	byDir := make(map[string]pkg)
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		exports[p.ImportPath] = p.Export
		byDir[p.Dir] = p
	}
	keys := make(map[string]string)
	for _, ch := range chapters {
		p, ok := byDir[filepath.Join(root, filepath.FromSlash(ch))]
		if !ok {
			return nil, fmt.Errorf("go list did not list %s", ch)
		}
		var lines []string
		for _, dep := range append(p.Deps, p.ImportPath) {
			lines = append(lines, dep+" "+exports[dep])
		}
		slices.Sort(lines)
		key := sha256.Sum256([]byte(runtime.Version() + "\n" + strings.Join(wasmFlags, " ") + "\n" + strings.Join(lines, "\n")))
		keys[ch] = fmt.Sprintf("%x", key[:12])
	}
	return keys, nil
}

// moduleFile is where the cache keeps the chapter's module of that key.
func moduleFile(cache, chapter, key string) string {
	return filepath.Join(cache, filepath.Base(chapter)+"-"+key+".wasm")
}

// linkModules links the chapters' modules with one go build, and puts each
// in the cache under its key, in place of the chapter's older modules.
func linkModules(ctx context.Context, root, cache string, chapters []string, keys map[string]string) error {
	tmp, err := os.MkdirTemp(cache, "build")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args := append(append([]string{"build"}, wasmFlags...), "-o", tmp+string(filepath.Separator))
	for _, ch := range chapters {
		args = append(args, "./"+ch)
	}
	if _, err := goOutput(ctx, root, wasmEnv, args...); err != nil {
		return err
	}
	for _, ch := range chapters {
		if err := os.Rename(filepath.Join(tmp, filepath.Base(ch)), moduleFile(cache, ch, keys[ch])); err != nil {
			return err
		}
		pruneModules(cache, ch)
	}
	return nil
}

// keptModules is how many modules of a chapter the cache keeps, the ones
// used last: several copies of the repository (a second worktree, a test's
// copy) share the cache, each with its own version of a chapter.
const keptModules = 4

// pruneModules removes the chapter's modules from the cache but the
// keptModules used last.
func pruneModules(cache, chapter string) {
	names, _ := filepath.Glob(filepath.Join(cache, filepath.Base(chapter)+"-*.wasm"))
	used := make(map[string]time.Time)
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil {
			used[name] = fi.ModTime()
		}
	}
	slices.SortFunc(names, func(a, b string) int { return used[b].Compare(used[a]) })
	for _, name := range names[min(len(names), keptModules):] {
		os.Remove(name)
	}
}

// wasmCacheDir returns the folder of the compiled modules, in the user's
// cache folder, as Go's own build cache is.
func wasmCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir = filepath.Join(dir, "mcpbookshop-guide", "wasm")
	return dir, os.MkdirAll(dir, 0o755)
}

// wasmExec reads the toolchain's wasm_exec.js: lib/wasm in Go 1.24 and
// later, misc/wasm before.
func wasmExec(ctx context.Context, root string) ([]byte, error) {
	goroot, err := goOutput(ctx, root, nil, "env", "GOROOT")
	if err != nil {
		return nil, err
	}
	dir := strings.TrimSpace(goroot)
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(sub), "wasm_exec.js"))
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("no wasm_exec.js in the Go toolchain at %s (lib/wasm or misc/wasm)", dir)
}

// goOutput runs the go command in dir with env added, and returns its
// standard output, or its output in the error when it fails.
func goOutput(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	var stdout, stderr strings.Builder
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}
