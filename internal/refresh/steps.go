package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A step is a file derived from the code that a package's test checks and,
// with -update, writes: go test -run ^Test$ -update pkg. The generator runs
// it when its inputs or its files changed since a run that left them
// as the test wants them.
type step struct {
	pkg  string // ./mcp, from the module's root
	test string
	// files are the files and folders it reads and writes, from the
	// module's root.
	files []string
	// chapters: the test runs the chapters, so their sources are
	// inputs too.
	chapters bool
}

// steps are the files go generate ./... refreshes besides the archives.
var steps = []step{
	{pkg: "./mcp", test: "TestErrorTableData", files: []string{"mcp/errortable.json"}},
	{pkg: "./internal/site", test: "TestDirectiveReference", files: []string{"CONTRIBUTING.md"}},
	{pkg: "./cmd/mcpc", test: "TestScripts", files: []string{"cmd/mcpc/testdata"}, chapters: true},
	{pkg: "./internal/callpath", test: "TestPin", files: []string{"internal/callpath/walks.json"}, chapters: true},
	// The page Check your server shows mcpc check on mcp-go's chapter 01:
	// the main it builds, of a module of its own, is an input as its files.
	{pkg: "./cmd/mcpc", test: "TestCheckSDK", files: []string{"cmd/mcpc/testdata/check", "sdks/mcpgo/01-tool-errors", "sdks/mcpgo/go.mod", "sdks/mcpgo/go.sum"}},
}

// command is the step's go test command line.
func (s step) command() []string {
	return []string{"test", s.pkg, "-run", "^" + s.test + "$", "-update"}
}

// key returns the cache key of the step in its current state: its test's
// sources, the chapters' if it runs them, and its files. A key in the cache
// is a state in which the test, with -update, wrote nothing more.
func (s step) key(h *hasher, l listing, chapterFiles []string) (string, error) {
	path, err := l.byDir(filepath.Join(h.root, filepath.FromSlash(s.pkg)), true)
	if err != nil {
		return "", err
	}
	names, err := l.files(h.root, path)
	if err != nil {
		return "", err
	}
	if s.chapters {
		names = append(names, chapterFiles...)
	}
	for _, f := range s.files {
		names = append(names, filepath.Join(h.root, filepath.FromSlash(f)))
	}
	return h.key("go "+strings.Join(s.command(), " "), nil, names)
}

// run runs the step's test with -update. It builds with -trimpath (in
// GOFLAGS, so that the chapters cmd/mcpc's test builds get it too): what
// the steps write holds no source path, and so every copy of the repository
// shares Go's build cache with the checkout, the walkthrough test's too.
func (s step) run(ctx context.Context, root string, env []string) error {
	cmd := exec.CommandContext(ctx, "go", s.command()...)
	cmd.Dir, cmd.Env = root, append(env, strings.TrimSpace("GOFLAGS=-trimpath "+os.Getenv("GOFLAGS")))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(s.command(), " "), err, out)
	}
	return nil
}

// byDir returns the import path of the package in dir: its test binary's
// if test is set.
func (l listing) byDir(dir string, test bool) (string, error) {
	for path, p := range l {
		if p.Dir == dir && !strings.Contains(path, " ") && strings.HasSuffix(path, ".test") == test {
			return path, nil
		}
	}
	return "", fmt.Errorf("go list did not list the package in %s", dir)
}

// environ is the environment the generator started with, for the go
// commands it runs (runArchives changes PATH while it runs).
var environ = os.Environ()
