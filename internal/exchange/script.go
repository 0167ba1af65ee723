package exchange

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// update is the test flag that rewrites the pinned replies in the scripts
// instead of failing: go test ./chapters/... -update
var update = flag.Bool("update", false, "rewrite the pinned replies in testdata/scripts from the servers' real output")

// ScriptsDir is where the scripts are, relative to a chapter's package.
const ScriptsDir = "../../testdata/scripts"

// Run runs the scripts in the directory of ScriptsDir named chapter, with
// the exchange command. The chapter's test binary must have registered the
// chapter's main, under the name the scripts use, with testscript.Main.
func Run(t *testing.T, chapter string) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(ScriptsDir, chapter),
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exchange": Cmd},
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}
