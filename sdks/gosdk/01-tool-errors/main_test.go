package main

import (
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run this main as the command 01-tool-errors, a process of
// its own with real stdin and stdout.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"01-tool-errors": main})
}

// TestScripts pins what the official Go SDK sends for the guide's requests,
// in testdata/scripts/01-tool-errors.
func TestScripts(t *testing.T) {
	exchange.RunDir(t, "../testdata/scripts/01-tool-errors")
}
