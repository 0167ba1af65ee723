package exchange

import (
	"os"
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
