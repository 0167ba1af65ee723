package exchange

import (
	"fmt"
	"path/filepath"
	"testing"
)

func TestRootPath(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "x.txtar")
	for _, tt := range []struct{ file, want string }{
		{"../../testdata/scripts/01-tool-errors/modern.txtar", "testdata/scripts/01-tool-errors/modern.txtar"},
		{"../../sdks/gosdk/testdata/scripts/01-tool-errors/modern.txtar", "sdks/gosdk/testdata/scripts/01-tool-errors/modern.txtar"},
		{"pincmd.go", "internal/exchange/pincmd.go"},
		{"../..", "."},
		{outside, filepath.ToSlash(outside)},
	} {
		if got := RootPath(tt.file); got != tt.want {
			t.Errorf("RootPath(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
	abs, err := filepath.Abs("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if got := RootPath(abs); got != "go.mod" {
		t.Errorf("RootPath(%q) = %q, want go.mod", abs, got)
	}
}

func TestPinnedBy(t *testing.T) {
	for _, tt := range []struct{ archive, want string }{
		{"../../testdata/scripts/02-protocol-errors/legacy.txtar", "./chapters/02-protocol-errors"},
		{"../../sdks/mcpgo/testdata/scripts/01-tool-errors-result/modern.txtar", "-C sdks/mcpgo ./01-tool-errors-result"},
		{"../../cmd/mcpc/testdata/script/call.txtar", "./cmd/mcpc"},
	} {
		if got := PinnedBy(tt.archive); got != tt.want {
			t.Errorf("PinnedBy(%q) = %q, want %q", tt.archive, got, tt.want)
		}
	}
}

// TestTestPackage checks that a package's refresh command is named from the
// repository's root, into an SDK module with -C.
func TestTestPackage(t *testing.T) {
	if got := TestPackage(); got != "./internal/exchange" {
		t.Errorf("TestPackage() = %q in internal/exchange", got)
	}
	t.Chdir("../../sdks/gosdk/01-tool-errors")
	if got, want := TestPackage(), "-C sdks/gosdk ./01-tool-errors"; got != want {
		t.Errorf("TestPackage() = %q in an SDK module's package, want %q", got, want)
	}
}

// A test that reads a pin itself and finds other output names the case,
// the pin from the repository's root and the commands that refresh it.
func ExamplePinHelp() {
	fmt.Println(PinHelp("../../testdata/scripts/02-protocol-errors/legacy.txtar", "want/protocol-error.jsonl"))
	// Output:
	// case protocol-error: pinned in want/protocol-error.jsonl of testdata/scripts/02-protocol-errors/legacy.txtar
	// If the new output is right, refresh the pins from the repository's root, and review them with git diff:
	//	go generate ./...
	// or, for one package's pins only:
	//	go test ./chapters/02-protocol-errors -run '^TestScripts$' -update
}
