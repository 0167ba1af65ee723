package exchange

import (
	"flag"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// update is the test flag that rewrites the pins in the scripts instead of
// failing, for one package's pins; RefreshCommand refreshes every package's
// (internal/refresh).
var update = flag.Bool("update", false, "write the pins in the scripts (replies, log lines) from the real output, adding the ones a case lacks; "+RefreshCommand+" does it for every package")

// Updating reports whether the test runs with -update: a test that runs
// scripts of its own passes it as testscript.Params.UpdateScripts and
// [Pins.Update], so that one flag updates them all.
func Updating() bool { return *update }

// ScriptsDir is where the scripts are, relative to a chapter's package.
const ScriptsDir = "../../testdata/scripts"

// Run runs the scripts in the directory of ScriptsDir named chapter, with
// the exchange, abort and pin commands. The chapter's test binary must have
// registered the chapter's main, under the name the scripts use, with
// testscript.Main. With -update, the pins are written instead of checked.
func Run(t *testing.T, chapter string) {
	RunDir(t, filepath.Join(ScriptsDir, chapter))
}

// RunDir is Run for the scripts in dir, a path relative to the test's
// package: what a module of its own, such as sdks/gosdk, whose scripts are
// not in ScriptsDir, runs.
func RunDir(t *testing.T, dir string) {
	testscript.Run(t, Params(dir, TestPackage(), Updating()))
}

// Params returns the testscript parameters of the scripts in dir: the
// exchange, abort and pin commands, with update set to write the pins
// instead of checking them; pkg is the package whose test runs them, for
// the command a stale pin's message names ([Pins.Package]). RunDir runs
// them; the generator that go generate ./... runs (internal/refresh) runs
// one archive at a time with them, outside go test.
func Params(dir, pkg string, update bool) testscript.Params {
	pins := Pins{Dir: dir, Update: update, Package: pkg}
	return testscript.Params{
		Dir:                 dir,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exchange": Cmd, "abort": AbortCmd, "pin": pins.Cmd},
		Setup:               pins.Setup,
		UpdateScripts:       update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	}
}

// ExplainFailures makes a failing test of the scripts in dir that pin with
// testscript's cmp, whose message does not say how to refresh a pin, end
// with the scripts' path from the repository's root and [RefreshHelp] for
// its package.
func ExplainFailures(t *testing.T, dir string) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Log("If a cmp above failed on a stale pin of the scripts in " + RootPath(dir) + ":\n" + RefreshHelp(TestPackage()))
		}
	})
}

// TestPackage returns the package whose test is running, as the go command
// names it from the repository's root: ./chapters/01-tool-errors, or for a
// package of a module of its own under the root, such as an SDK's, with the
// flag that changes into the module first: -C sdks/gosdk ./01-tool-errors.
// A test runs in its package's directory, and the module's root is the
// nearest one above it with a go.mod file.
func TestPackage() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for root := wd; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			pkg := "."
			if rel, err := filepath.Rel(root, wd); err == nil && rel != "." {
				pkg = "./" + filepath.ToSlash(rel)
			}
			if mod := path.Dir(RootPath(filepath.Join(root, "go.mod"))); mod != "." && !path.IsAbs(mod) {
				pkg = "-C " + mod + " " + pkg
			}
			return pkg
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "."
		}
		root = parent
	}
}
