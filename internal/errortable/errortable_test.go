package errortable_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcpbookshop/guide/internal/errortable"
	_ "github.com/mcpbookshop/guide/mcp" // sets errortable.JSON
)

// TestJSONIsTheFile checks that package mcp hands over its table as data,
// byte for byte the file go generate writes.
func TestJSONIsTheFile(t *testing.T) {
	file, err := os.ReadFile("../../mcp/errortable.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(errortable.JSON) == 0 || !bytes.Equal(errortable.JSON, file) {
		t.Errorf("errortable.JSON holds %d bytes, not mcp/errortable.json's %d", len(errortable.JSON), len(file))
	}
}
