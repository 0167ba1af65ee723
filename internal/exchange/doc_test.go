package exchange

import (
	"bytes"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// moduleRoot is the module's root, from this package's directory.
const moduleRoot = "../.."

// TestDocExampleIsReal checks the package doc's example case against the
// archive it names: its script lines are the archive's, and each line of
// its sections is the archive's line, or its start where the doc elides the
// rest with "...".
func TestDocExampleIsReal(t *testing.T) {
	src, err := os.ReadFile("exchange.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\n//\n// (the \"...\"")
	_, example, ok := strings.Cut(doc, "logged once.\n")
	if !ok {
		t.Fatal("the package doc has no example case")
	}
	var text strings.Builder
	for line := range strings.Lines(example) {
		line = strings.TrimPrefix(line, "//")
		text.WriteString(strings.TrimPrefix(line, "\t"))
	}
	example = text.String()
	ar, err := txtar.ParseFile(filepath.Join(moduleRoot, "testdata/scripts/01-tool-errors/modern.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	shown := txtar.Parse([]byte(example))
	script := strings.TrimSpace(string(shown.Comment))
	if script == "" || !strings.Contains(string(ar.Comment), script+"\n") {
		t.Errorf("modern.txtar has no script lines\n%s", script)
	}
	if len(shown.Files) != 3 {
		t.Fatalf("the example shows %d sections, want 3", len(shown.Files))
	}
	for _, f := range shown.Files {
		real := section(ar, f.Name)
		if real == nil {
			t.Errorf("modern.txtar has no section %s", f.Name)
			continue
		}
		if !matchesElided(string(f.Data), string(real)) {
			t.Errorf("the doc's %s\n%s\nis not modern.txtar's\n%s", f.Name, f.Data, real)
		}
	}
}

// section returns the data of ar's file name, or nil.
func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// matchesElided reports whether each line of shown is the line of real, or
// its start followed by "...}}" where the doc elides the rest.
func matchesElided(shown, real string) bool {
	s, r := strings.Split(shown, "\n"), strings.Split(real, "\n")
	if len(s) != len(r) {
		return false
	}
	for i := range s {
		head, _, elided := strings.Cut(s[i], "...")
		if s[i] != r[i] && !(elided && strings.HasPrefix(r[i], head)) {
			return false
		}
	}
	return true
}

// generateLine is the go:generate line of a package whose tests pin
// output, which RefreshCommand runs.
const generateLine = "//go:generate go test -run ^TestScripts$ -update"

// TestEveryPinningPackageIsRefreshed checks that RefreshCommand refreshes
// every package whose tests pin output (they run scripts with
// UpdateScripts, or with Run or RunDir:
// the SDK modules' included), but this one: each has the go:generate line,
// and go generate sees it.
func TestEveryPinningPackageIsRefreshed(t *testing.T) {
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var pinning []string
	err = filepath.WalkDir(moduleRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != moduleRoot {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// This package's own tests run scripts on temporary archives only.
		abs, _ := filepath.Abs(filepath.Dir(path))
		if abs != here && (bytes.Contains(src, []byte("exchange.Run(t")) || bytes.Contains(src, []byte("exchange.RunDir(t")) || bytes.Contains(src, []byte("UpdateScripts:"))) {
			pinning = append(pinning, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pinning) < 5 {
		t.Fatalf("found %d packages that pin output (%v), want the four chapters and cmd/mcpc at least", len(pinning), pinning)
	}
	for _, dir := range pinning {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, name := range append(pkg.TestGoFiles, pkg.XTestGoFiles...) {
			src, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			found = found || bytes.Contains(src, []byte("\n"+generateLine+"\n"))
		}
		if !found {
			t.Errorf("%s pins output but no test file has the line\n%s\nso %s does not refresh its pins", dir, generateLine, RefreshCommand)
		}
	}

	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is needed to check what go generate runs:", err)
	}
	out, err := exec.Command(goTool, "generate", "-n", "../../chapters/01-tool-errors").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != strings.TrimPrefix(generateLine, "//go:generate ") {
		t.Errorf("go generate -n on a chapter prints %q (%v), want its go:generate line's command", out, err)
	}
}
