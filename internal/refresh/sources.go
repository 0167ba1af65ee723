package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// pkg is what a go list -deps -test run tells of one package.
type pkg struct {
	ImportPath string
	Dir        string
	Deps       []string
	Module     *struct{ GoMod string }

	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles []string
	EmbedFiles, TestEmbedFiles, XTestEmbedFiles                    []string
	TestGoFiles, XTestGoFiles, IgnoredGoFiles, IgnoredOtherFiles   []string
}

// listFields are the fields of pkg, for go list -json=...
const listFields = "ImportPath,Dir,Deps,Module,GoFiles,CgoFiles,CFiles,CXXFiles,HFiles,SFiles,SysoFiles,EmbedFiles,TestEmbedFiles,XTestEmbedFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles,IgnoredOtherFiles"

// listing is the packages of one go list run, by import path.
type listing map[string]*pkg

// list runs go list -deps -test on patterns in the module at dir.
func list(ctx context.Context, dir string, patterns []string) (listing, error) {
	args := append([]string{"list", "-deps", "-test", "-json=" + listFields, "--"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	var stdout, stderr bytes.Buffer
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	l := make(listing)
	dec := json.NewDecoder(&stdout)
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		l[p.ImportPath] = p
	}
	return l, nil
}

// files returns the files of the repository that go builds the package
// path from, with what it imports: for each package among them whose
// directory is inside root (this module's, and a module that a replace
// directive takes from the repository), its source files, embedded files
// and files its build constraints leave out, test files included, and its
// module's go.mod and go.sum, which pin every other module. The standard
// library is the Go version's, which every key holds.
func (l listing) files(root, path string) ([]string, error) {
	p := l[path]
	if p == nil {
		return nil, fmt.Errorf("go list did not list %s", path)
	}
	var names []string
	for _, dep := range append([]string{path}, p.Deps...) {
		d := l[dep]
		if d == nil || !inside(root, d.Dir) {
			continue
		}
		for _, group := range [][]string{d.GoFiles, d.CgoFiles, d.CFiles, d.CXXFiles, d.HFiles, d.SFiles, d.SysoFiles, d.EmbedFiles, d.TestEmbedFiles, d.XTestEmbedFiles, d.TestGoFiles, d.XTestGoFiles, d.IgnoredGoFiles, d.IgnoredOtherFiles} {
			for _, f := range group {
				names = append(names, filepath.Join(d.Dir, f))
			}
		}
		if d.Module != nil && d.Module.GoMod != "" {
			names = append(names, d.Module.GoMod, filepath.Join(filepath.Dir(d.Module.GoMod), "go.sum"))
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// inside reports whether dir is root or below it.
func inside(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// buildEnv are the environment variables that change what go builds of the
// same sources, or how a test binary runs them.
var buildEnv = []string{
	"GOFLAGS", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386",
	"CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_LDFLAGS",
	"GOEXPERIMENT", "GOFIPS140", "GOWORK", "GOTOOLCHAIN", "GODEBUG",
}

// A hasher names the content of a set of files and texts, as the cache's
// keys do. Files are named relative to root, so that a copy of the
// repository elsewhere gets the same keys.
type hasher struct {
	root string

	mu     sync.Mutex
	hashes map[string]string // of files that are inputs only
}

// key returns the hex SHA-256 of kind, the Go version, the build
// environment, the texts and the named files (their names relative to the
// root and their content; a missing file counts as missing). A folder among
// names stands for every file below it.
func (h *hasher) key(kind string, texts []string, names []string) (string, error) {
	sum := sha256.New()
	fmt.Fprintf(sum, "%s\n%s %s/%s\n", kind, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, v := range buildEnv {
		fmt.Fprintf(sum, "%s=%q\n", v, os.Getenv(v))
	}
	for _, t := range texts {
		fmt.Fprintf(sum, "text %d\n%s\n", len(t), t)
	}
	expanded, err := h.expand(names)
	if err != nil {
		return "", err
	}
	for _, name := range expanded {
		fh, err := h.file(name)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(h.root, name)
		fmt.Fprintf(sum, "file %s %s\n", filepath.ToSlash(rel), fh)
	}
	return hex.EncodeToString(sum.Sum(nil)), nil
}

// expand replaces each folder among names with the files below it, and
// sorts them.
func (h *hasher) expand(names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		fi, err := os.Stat(name)
		if err != nil || !fi.IsDir() {
			out = append(out, name)
			continue
		}
		err = filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// file returns the hex SHA-256 of the file name's content, "missing" if it
// does not exist. Sources are read once a run; generated files may change
// during it, so forget drops them.
func (h *hasher) file(name string) (string, error) {
	h.mu.Lock()
	sum, ok := h.hashes[name]
	h.mu.Unlock()
	if ok {
		return sum, nil
	}
	b, err := os.ReadFile(name)
	switch {
	case os.IsNotExist(err):
		sum = "missing"
	case err != nil:
		return "", err
	default:
		s := sha256.Sum256(b)
		sum = hex.EncodeToString(s[:])
	}
	h.mu.Lock()
	if h.hashes == nil {
		h.hashes = make(map[string]string)
	}
	h.hashes[name] = sum
	h.mu.Unlock()
	return sum, nil
}

// forget makes the hasher read the files below names again.
func (h *hasher) forget(names []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name := range h.hashes {
		for _, n := range names {
			if name == n || inside(n, name) {
				delete(h.hashes, name)
			}
		}
	}
}
