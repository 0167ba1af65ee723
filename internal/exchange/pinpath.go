package exchange

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// RootPath returns file, a path absolute or relative to the working
// directory, as a slash-separated path from the guide repository's root:
// the nearest directory, file itself or one above it, that holds go.mod and
// docs/pages.txt, as go run ./docs finds it. A message that names a pin this
// way reads the same from every package's test
// (testdata/scripts/01-tool-errors/modern.txtar, not ../../testdata/...). A
// file outside the repository is returned absolute.
func RootPath(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	for dir := abs; ; {
		if isFile(filepath.Join(dir, "go.mod")) && isFile(filepath.Join(dir, "docs", "pages.txt")) {
			rel, err := filepath.Rel(dir, abs)
			if err != nil {
				break
			}
			return filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.ToSlash(abs)
}

// isFile reports whether name is a file (not a directory).
func isFile(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// PinnedBy returns the package whose test pins archive, as [RefreshHelp]
// takes it, from the repository's root: ./chapters/01-tool-errors for
// testdata/scripts/01-tool-errors/modern.txtar, and -C sdks/gosdk
// ./01-tool-errors for an SDK module's
// sdks/gosdk/testdata/scripts/01-tool-errors/modern.txtar. Any other
// archive is pinned by the package whose testdata holds it.
func PinnedBy(archive string) string {
	p := RootPath(archive)
	dir := path.Base(path.Dir(p))
	switch before, _, ok := strings.Cut(p, "/testdata/"); {
	case strings.HasPrefix(p, "testdata/scripts/"):
		return "./chapters/" + dir
	case ok && strings.HasPrefix(before, "sdks/") && strings.Count(before, "/") == 1:
		return "-C " + before + " ./" + dir
	case ok:
		return "./" + before
	}
	return "./" + path.Dir(p)
}

// PinHelp is what a test that compares output with a pin of its own
// reading says when they differ: the case, the pin's path from the
// repository's root (section, such as want/tool-error.jsonl, of archive)
// and [RefreshHelp] for the package that pins it ([PinnedBy]).
func PinHelp(archive, section string) string {
	return fmt.Sprintf("case %s: pinned in %s of %s\n%s", caseName(section), section, RootPath(archive), RefreshHelp(PinnedBy(archive)))
}
