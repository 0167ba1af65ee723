package exchange

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPinned(t *testing.T) {
	c, err := Pinned(filepath.Join(moduleRoot, "testdata/scripts/01-tool-errors/modern.txtar"), "tool-error")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Requests) != 1 || !strings.Contains(c.Requests[0], `"arguments":{"title":"Nothing"}`) {
		t.Errorf("Requests = %q, want the one call for Nothing", c.Requests)
	}
	if len(c.Replies) != 1 || !strings.Contains(c.Replies[0], `No book titled 'Nothing' in the catalog.`) {
		t.Errorf("Replies = %q, want the one tool error", c.Replies)
	}
	if want := `time=<time> level=INFO msg="tool error" tool=get_author error="No book titled 'Nothing' in the catalog."`; len(c.Log) != 1 || c.Log[0] != want {
		t.Errorf("Log = %q, want [%s]", c.Log, want)
	}
	if _, err := Pinned(filepath.Join(moduleRoot, "testdata/scripts/01-tool-errors/modern.txtar"), "gone"); err == nil || !strings.Contains(err.Error(), "no case gone") {
		t.Errorf("Pinned of a missing case: err = %v, want one naming the case", err)
	}
}

func TestPinnedReply(t *testing.T) {
	scripts := filepath.Join(moduleRoot, "testdata/scripts")
	for _, tt := range []struct {
		archive, name string
		want          Reply
	}{
		{"01-tool-errors/modern.txtar", "tool-error", Reply{Text: "Error executing tool get_author: No book titled 'Nothing' in the catalog.", IsError: true}},
		{"01-tool-errors/modern.txtar", "success", Reply{Text: "Frank Herbert"}},
		{"01-tool-errors/modern.txtar", "unknown-tool", Reply{Text: "Unknown tool: get_title", Code: -32602}},
	} {
		got, err := PinnedReply(filepath.Join(scripts, tt.archive), tt.name)
		if err != nil || got.Text != tt.want.Text || got.IsError != tt.want.IsError || got.Code != tt.want.Code {
			t.Errorf("PinnedReply(%s, %s) = %+v, %v; want %+v", tt.archive, tt.name, got, err, tt.want)
		}
	}
	if _, err := PinnedReply(filepath.Join(scripts, "01-tool-errors/modern.txtar"), "gone"); !errors.Is(err, ErrNotPinned) {
		t.Errorf("PinnedReply of a missing case: err = %v, want one wrapping ErrNotPinned", err)
	}
	// A pinned line with no text to read says which line.
	dir := t.TempDir()
	archive := filepath.Join(dir, "x.txtar")
	os.WriteFile(archive, []byte("-- req/x.jsonl --\n{}\n-- want/x.jsonl --\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"), 0o644)
	if _, err := PinnedReply(archive, "x"); err == nil || !strings.Contains(err.Error(), "has no text") {
		t.Errorf("PinnedReply of a reply without text: err = %v, want one saying it has no text", err)
	}
}
