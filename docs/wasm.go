package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/site"
)

// compileBrowser compiles the main of every chapter with transcripts for the
// browser (GOOS=js GOARCH=wasm), as the Run buttons need it, and takes
// wasm_exec.js from the Go toolchain that compiles them. It says on progress
// what it is doing, since a first build takes minutes.
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
	b := &site.Browser{Modules: make(map[string][]byte), WasmExec: support}
	for _, chapter := range chapters {
		fmt.Fprintf(progress, "Compiling %s for the browser (GOOS=js GOARCH=wasm)...", chapter)
		start := time.Now()
		wasm, cached, err := compileChapter(ctx, root, chapter, cache)
		if err != nil {
			fmt.Fprintln(progress)
			return nil, err
		}
		b.Modules[chapter] = wasm
		how := "in"
		if cached {
			how = "unchanged, from the cache, in"
		}
		fmt.Fprintf(progress, " %.1f MB, %s %.1fs\n", float64(len(wasm))/1e6, how, time.Since(start).Seconds())
	}
	return b, nil
}

// recordSources opens the sources in this module of the chapters' browser
// builds: the docs tests compile the chapters through compileBrowser, in a
// go subprocess that go test's cache does not see, so that a change to a
// chapter or to mcp/ runs them again rather than reporting "ok (cached)"
// (see chapterproc.Record). Outside a test it costs one go list.
func recordSources(ctx context.Context, root string, chapters []string) error {
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

// compileChapter compiles one chapter for the browser, or takes it from the
// cache: the module is kept under a key made of the Go version and the
// compiled packages it is linked from, which Go's build cache names by
// content, so that an unchanged chapter is not linked again.
func compileChapter(ctx context.Context, root, chapter, cache string) (wasm []byte, cached bool, err error) {
	env := wasmEnv
	list, err := goOutput(ctx, root, env, append(append([]string{"list"}, wasmFlags...), "-deps", "-export", "-f", "{{.ImportPath}} {{.Export}}", "./"+chapter)...)
	if err != nil {
		return nil, false, err
	}
	key := sha256.Sum256([]byte(runtime.Version() + "\n" + strings.Join(wasmFlags, " ") + "\n" + list))
	file := filepath.Join(cache, fmt.Sprintf("%s-%x.wasm", filepath.Base(chapter), key[:12]))
	if wasm, err := os.ReadFile(file); err == nil {
		return wasm, true, nil
	}
	tmp := file + ".tmp"
	if _, err := goOutput(ctx, root, env, append(append([]string{"build"}, wasmFlags...), "-o", tmp, "./"+chapter)...); err != nil {
		return nil, false, err
	}
	// Keep one module a chapter: the others are of older sources.
	old, _ := filepath.Glob(filepath.Join(cache, filepath.Base(chapter)+"-*.wasm"))
	for _, f := range old {
		os.Remove(f)
	}
	if err := os.Rename(tmp, file); err != nil {
		return nil, false, err
	}
	wasm, err = os.ReadFile(file)
	return wasm, false, err
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
