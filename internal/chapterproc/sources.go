package chapterproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// listed is what ModuleSources reads of a package that go list prints.
type listed struct {
	Dir        string
	ImportPath string
	Module     *struct {
		Main  bool
		Dir   string
		GoMod string
	}
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles []string
	EmbedFiles, IgnoredGoFiles, IgnoredOtherFiles                  []string
}

// listFields are the fields of listed, for go list -json=...: go list then
// computes nothing else.
const listFields = "Dir,ImportPath,Module,GoFiles,CgoFiles,CFiles,CXXFiles,HFiles,SFiles,SysoFiles,EmbedFiles,IgnoredGoFiles,IgnoredOtherFiles"

// ModuleSources returns the files of this module that a build of the
// packages matched by patterns reads, as go list -deps run in dir with env
// added (such as GOOS=js) sees them: for each package of the main module
// among the packages and their dependencies, its directory, its source
// files, the files it embeds and the Go files its build constraints leave
// out (so that an edit to a constraint is seen); and the module's go.mod and
// go.sum. Packages of the standard library and of other modules are left
// out. The names are absolute and sorted.
func ModuleSources(ctx context.Context, dir string, env []string, patterns ...string) ([]string, error) {
	args := append([]string{"list", "-deps", "-json=" + listFields, "--"}, patterns...)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("listing the sources of %s: go %s: %v\n%s", strings.Join(patterns, " "), strings.Join(args, " "), err, stderr.Bytes())
	}
	seen := make(map[string]bool)
	add := func(name string) { seen[name] = true }
	dec := json.NewDecoder(&stdout)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output for %s: %v", strings.Join(patterns, " "), err)
		}
		if p.Module == nil || !p.Module.Main {
			continue
		}
		add(p.Dir)
		for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles, p.IgnoredGoFiles, p.IgnoredOtherFiles} {
			for _, f := range files {
				if !strings.HasSuffix(f, "_test.go") { // a test left out by its build constraint
					add(filepath.Join(p.Dir, f))
				}
			}
		}
		add(p.Module.GoMod)
		add(filepath.Join(p.Module.Dir, "go.sum"))
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("go list found no package of this module in %s: name the chapters' packages (./chapters/01-tool-errors)", strings.Join(patterns, " "))
	}
	var names []string
	for name := range seen {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// buildEnv are the environment variables that change what go build makes
// of the same sources, which Record looks up.
var buildEnv = []string{
	"GOFLAGS", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOWASM",
	"CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_LDFLAGS",
	"GOEXPERIMENT", "GOFIPS140", "GOWORK", "GOTOOLCHAIN", "GOENV",
}

// Record opens and closes each of names, and looks up the environment
// variables that change what go build makes (GOFLAGS, GOOS, GOARCH,
// CGO_ENABLED, GOEXPERIMENT, GOWORK, ...). Called from inside a test, it
// makes go test record them as the test's inputs, so that a later change to
// one runs the test again instead of reporting "ok (cached)" (see the
// package documentation for what go test compares). A name that does not
// exist is skipped: go test records the attempt, so its creation is seen.
func Record(names []string) error {
	for _, v := range buildEnv {
		os.LookupEnv(v)
	}
	for _, name := range names {
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}
