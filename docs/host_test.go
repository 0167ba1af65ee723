package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/mcpbookshop/guide/internal/mcptest"
)

// TestHostConfig starts chapter 01 as the host configuration on Running
// says (docs/running/mcp-servers.json, with the binary built where its
// placeholder path says), and asks it who wrote Nothing: the page's next
// sentence promises a tool error the model reads.
func TestHostConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a chapter; skipped in -short mode")
	}
	b, err := os.ReadFile(filepath.Join("running", "mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("mcp-servers.json: %v", err)
	}
	server, ok := cfg.MCPServers["bookshop"]
	const placeholder = "/absolute/path/to/"
	name, isPlaceholder := strings.CutPrefix(server.Command, placeholder)
	if !ok || !isPlaceholder || len(cfg.MCPServers) != 1 {
		t.Fatalf("mcp-servers.json: want one server, bookshop, whose command is under %s: %s", placeholder, b)
	}
	// The page builds it with: go build -o bookshop-01 ./chapters/01-tool-errors
	bin := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-o", bin, "./chapters/01-tool-errors")
	build.Dir = testRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var replies []string
	ask := mcptest.ToolCall("1", "get_author", `{"title":"Nothing"}`)
	err = lockstep.Run(t.Context(), exec.Command(bin, server.Args...), []string{ask}, lockstep.ReplyTimeout, func(line []byte) {
		replies = append(replies, string(line))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != 1 || !strings.Contains(replies[0], `"isError":true`) || !strings.Contains(replies[0], "No book titled 'Nothing'") {
		t.Errorf("the configured server answered %q, want a tool error about Nothing", replies)
	}
}
