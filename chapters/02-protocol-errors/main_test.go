package main

import (
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run this chapter's real main as the command
// 02-protocol-errors, a process of its own with real stdin and stdout.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"02-protocol-errors": main})
}

// TestScripts pins the chapter's wire exchanges, in testdata/scripts/02-protocol-errors.
func TestScripts(t *testing.T) {
	exchange.Run(t, "02-protocol-errors")
}
