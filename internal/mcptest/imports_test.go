package mcptest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestOnlyTestsImportIt holds the package doc's promise: no package of the
// module imports this one outside its tests, so no program links it.
func TestOnlyTestsImportIt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const self = "github.com/mcpbookshop/guide/internal/mcptest"
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	testers := 0
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		pkg, rest, _ := strings.Cut(strings.TrimSpace(line), "|")
		imports, tests, _ := strings.Cut(rest, "|")
		if slices.Contains(strings.Fields(imports), self) {
			t.Errorf("%s imports %s outside its tests: only tests may", pkg, self)
		}
		if slices.Contains(strings.Fields(tests), self) {
			testers++
		}
	}
	// The check can fail: it sees the tests that do import this package.
	if testers == 0 {
		t.Error("go list finds no test importing this package: the check above reads nothing")
	}
}
