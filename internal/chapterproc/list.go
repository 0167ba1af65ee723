package chapterproc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Root returns the root directory of the module: the nearest directory
// holding a go.mod file, from the working directory up (a test runs in its
// package's directory).
func Root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod in %s or any directory above it: run the tests inside the guide's module", wd)
		}
		dir = parent
	}
}

// List returns the chapters, the directories of chapters/ in the module
// root (such as "01-tool-errors"), in the order of their names. Reading the
// directory inside a test records it for the test cache, so a chapter added
// or removed runs the test again.
func List() ([]string, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(root, "chapters"))
	if err != nil {
		return nil, fmt.Errorf("listing the chapters: %v", err)
	}
	var chapters []string
	for _, e := range entries {
		if e.IsDir() {
			chapters = append(chapters, e.Name())
		}
	}
	if len(chapters) == 0 {
		return nil, fmt.Errorf("no chapters in %s: each is a directory holding a main package", filepath.Join(root, "chapters"))
	}
	return chapters, nil
}
