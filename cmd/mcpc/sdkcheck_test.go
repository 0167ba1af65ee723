package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/exchange"
)

// The page Check your server shows mcpc check's output on a Bookshop no one
// wrote for this checker: mcp-go's chapter 01. TestCheckSDK pins it; go
// generate ./... refreshes the pin with the chapters' (a step of
// internal/refresh).

// sdkCheck is the run the page shows: the SDK module under sdks/, its main,
// mcpc's arguments before the server, the exit status, and the pin, from
// this package's directory.
var sdkCheck = struct {
	module, main string
	args         []string
	status       int
	pin          string
}{"mcpgo", "01-tool-errors", []string{"-era", "modern", "check"}, exitFindings, "testdata/check/mcpgo-01-tool-errors.txt"}

// TestCheckSDK builds sdkCheck's main, checks it with mcpc and compares
// the command line, the output and the exit status with the pin, which
// -update writes instead. Building a main of another module takes seconds,
// so it runs with GUIDE_LONG=1, as .ci/run sets, or -update.
func TestCheckSDK(t *testing.T) {
	if os.Getenv("GUIDE_LONG") == "" && !exchange.Updating() {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does (or -update to refresh the pin)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the SDK's main:", err)
	}
	dir := filepath.Join("..", "..", "sdks", sdkCheck.module)
	sources, err := chapterproc.ModuleSources(t.Context(), dir, nil, "./"+sdkCheck.main)
	if err != nil {
		t.Fatal(err)
	}
	if err := chapterproc.Record(sources); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), sdkCheck.main)
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./"+sdkCheck.main)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", sdkCheck.main, err, out)
	}

	var stdout, stderr bytes.Buffer
	status := run(t.Context(), append(append(sdkCheck.args, "--"), bin), &stdout, &stderr)
	if status != sdkCheck.status {
		t.Fatalf("mcpc check exited with status %d, want %d\nstdout:\n%s\nstderr:\n%s", status, sdkCheck.status, &stdout, &stderr)
	}
	got := fmt.Sprintf("$ mcpc %s -- ./%s\n%s$ echo $?\n%d\n", strings.Join(sdkCheck.args, " "), sdkCheck.main, &stdout, status)
	if exchange.Updating() {
		if err := os.MkdirAll(filepath.Dir(sdkCheck.pin), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sdkCheck.pin, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(sdkCheck.pin)
	if err != nil {
		t.Fatalf("%v: write the pin with go generate ./...", err)
	}
	if string(want) != got {
		stale := exchange.Stale(sdkCheck.main, "mcpc check's output", "cmd/mcpc/"+sdkCheck.pin, string(want), got, "./cmd/mcpc")
		t.Errorf("%s\n%s", strings.TrimSuffix(stale, exchange.RefreshHelp("./cmd/mcpc")),
			"If the new output is right, refresh the pin from the repository's root, and review it with git diff:\n\t"+
				exchange.RefreshCommand+"\nor, for this pin only:\n\tgo test ./cmd/mcpc -run '^TestCheckSDK$' -update")
	}
}
