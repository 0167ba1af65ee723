package chapterproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// packages returns the chapters' package patterns, relative to the module
// root.
func packages(chapters []string) []string {
	var pkgs []string
	for _, ch := range chapters {
		pkgs = append(pkgs, "./chapters/"+ch)
	}
	return pkgs
}

// Build compiles the named chapters (directories of chapters/, such as
// "01-tool-errors", see [List]) into dir, one binary each named after its
// directory. It first records the chapters' sources in this module for the
// test cache ([ModuleSources], [Record]), so call it from inside a test, not
// from TestMain.
func Build(ctx context.Context, dir string, chapters ...string) error {
	if len(chapters) == 0 {
		return errors.New("chapterproc.Build: no chapter named: name directories of chapters/, or pass chapterproc.List()'s")
	}
	root, err := Root()
	if err != nil {
		return err
	}
	pkgs := packages(chapters)
	sources, err := ModuleSources(ctx, root, nil, pkgs...)
	if err != nil {
		return err
	}
	if err := Record(sources); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-o", dir + string(filepath.Separator), "--"}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", pkgs, err, out)
	}
	return nil
}

// Binaries builds chapters on demand, each at most once, into a temporary
// directory that its tests share. The zero value is ready to use; it is
// safe for concurrent use. A package's TestMain removes the directory after
// the tests:
//
//	var binaries chapterproc.Binaries
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		binaries.Remove()
//		os.Exit(code)
//	}
type Binaries struct {
	mu    sync.Mutex
	dir   string
	built map[string]error // by chapter
}

// Path returns the path of the named chapter's binary, building it with
// [Build] on first use. Call it from inside a test, so that the test cache
// records the chapter's sources; a failed build fails every later call for
// that chapter with the same error.
func (b *Binaries) Path(chapter string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "chapters")
		if err != nil {
			return "", err
		}
		b.dir, b.built = dir, make(map[string]error)
	}
	err, done := b.built[chapter]
	if !done {
		err = Build(context.Background(), b.dir, chapter)
		b.built[chapter] = err
	}
	return filepath.Join(b.dir, chapter), err
}

// Remove removes the binaries built so far.
func (b *Binaries) Remove() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir != "" {
		os.RemoveAll(b.dir)
		b.dir, b.built = "", nil
	}
}
