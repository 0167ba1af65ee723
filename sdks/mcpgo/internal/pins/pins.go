// Package pins runs the scripts that pin what each mcp-go Bookshop sends,
// with the guide's own testscript commands (pin from package exchange, and
// exchange as package exchange has it but for one difference, see
// exchangeCmd), so that they are pinned in the same form as the guide's
// chapters and refreshed the same way.
package pins

import (
	"path/filepath"
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// ScriptsDir is where the scripts are, relative to a main's package:
// sdks/mcpgo/testdata/scripts.
const ScriptsDir = "../testdata/scripts"

// Run runs the scripts in the directory of ScriptsDir named name, the
// main's own folder name, with the exchange (exchangeCmd) and pin
// commands. The main's
// test binary must have registered the main under that name with
// testscript.Main. With -update (exchange.Updating), the pins are written
// instead of checked.
func Run(t *testing.T, name string) {
	dir := filepath.Join(ScriptsDir, name)
	p := exchange.Pins{Dir: dir, Update: exchange.Updating(), Package: exchange.TestPackage()}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exchange": exchangeCmd, "pin": p.Cmd},
		Setup:               p.Setup,
		UpdateScripts:       exchange.Updating(),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}
