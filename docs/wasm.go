package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

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
	support, err := wasmExec(ctx, root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "guide-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b := &site.Browser{Modules: make(map[string][]byte), WasmExec: support}
	for _, chapter := range chapters {
		fmt.Fprintf(progress, "Compiling %s for the browser (GOOS=js GOARCH=wasm)...", chapter)
		start := time.Now()
		out := filepath.Join(tmp, filepath.Base(chapter)+".wasm")
		// -trimpath keeps the machine's paths out of the module the site ships.
		if err := goCmd(ctx, root, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./"+chapter); err != nil {
			fmt.Fprintln(progress)
			return nil, err
		}
		wasm, err := os.ReadFile(out)
		if err != nil {
			return nil, err
		}
		b.Modules[chapter] = wasm
		fmt.Fprintf(progress, " %.1f MB in %.1fs\n", float64(len(wasm))/1e6, time.Since(start).Seconds())
	}
	return b, nil
}

// wasmExec reads the toolchain's wasm_exec.js: lib/wasm in Go 1.24 and
// later, misc/wasm before.
func wasmExec(ctx context.Context, root string) ([]byte, error) {
	var goroot strings.Builder
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir, cmd.Stdout = root, &goroot
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	dir := strings.TrimSpace(goroot.String())
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

// goCmd runs the go command in dir with env added, and returns its output in
// the error when it fails.
func goCmd(ctx context.Context, dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
