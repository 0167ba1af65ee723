package main

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestGoInstall checks that mcpc installs with one line,
// go install MODULE/cmd/mcpc@latest: go.mod has no replace or exclude
// directive (go install with a version refuses a module that has one), and
// the README and this package's doc give that line.
func TestGoInstall(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mod.Replace {
		t.Errorf("go.mod:%d: replace %s: go install ...@latest refuses a module with a replace directive; remove it", r.Syntax.Start.Line, r.Old.Path)
	}
	for _, x := range mod.Exclude {
		t.Errorf("go.mod:%d: exclude %s: go install ...@latest refuses a module with an exclude directive; remove it", x.Syntax.Start.Line, x.Mod.Path)
	}

	line := "go install " + mod.Module.Mod.Path + "/cmd/mcpc@latest"
	for _, file := range []string{"../../README.md", "main.go"} {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), line) {
			t.Errorf("%s does not give the install line %q", strings.TrimPrefix(file, "../../"), line)
		}
	}
}
