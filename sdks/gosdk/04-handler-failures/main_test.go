package main

import (
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run this main as the command 04-handler-failures, a process of
// its own with real stdin and stdout.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"04-handler-failures": main})
}

// TestScripts pins what the official Go SDK sends for the guide's requests,
// in testdata/scripts/04-handler-failures.
func TestScripts(t *testing.T) {
	exchange.RunDir(t, "../testdata/scripts/04-handler-failures")
}
