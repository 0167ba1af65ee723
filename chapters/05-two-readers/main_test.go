package main

import (
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run this chapter's real main as the command
// 05-two-readers, a process of its own with real stdin and stdout.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"05-two-readers": main})
}

// TestScripts pins the chapter's wire exchanges, in testdata/scripts/05-two-readers.
func TestScripts(t *testing.T) {
	exchange.Run(t, "05-two-readers")
}
