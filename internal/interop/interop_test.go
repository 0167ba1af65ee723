// Package interop checks that a real MCP client this project did not write,
// the official Go SDK's, talks to each chapter over stdio and over
// Streamable HTTP, in both protocol eras, and sees each chapter's error
// exactly as the guide describes it; and that over HTTP each chapter gives
// the replies its scripts pin over stdio, byte for byte.
package interop

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chapters lists the chapters the tests run, by directory under chapters/;
// each is built into a binary of that name.
var chapters = []string{"01-tool-errors", "02-protocol-errors", "03-resources", "04-handler-failures"}

// bin is the directory holding the chapters' binaries.
var bin string

// TestMain builds the chapters, so each test runs one as a real process.
func TestMain(m *testing.M) {
	os.Exit(chapterproc.RunTests(m, &bin, chapters...))
}

// eras are the two ways the SDK client connects: the 2025-11-25 handshake,
// and, by default, 2026-07-28 with server/discover and no handshake.
var eras = []struct {
	name, version string
	opts          *mcp.ClientSessionOptions
}{
	{"legacy", "2025-11-25", &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}},
	{"modern", "2026-07-28", nil},
}

// callTimeout bounds one chapter session.
const callTimeout = 30 * time.Second

// A transport runs chapter and returns the SDK transport that reaches it,
// and a function that checks, once the session is closed, that the chapter
// exited cleanly.
type transport struct {
	name  string
	start func(t *testing.T, chapter string) (mcp.Transport, func(t *testing.T))
}

// transports lists the ways the SDK client reaches a chapter: over stdio
// here, and over Streamable HTTP (http_test.go).
var transports = []transport{{"stdio", startStdio}}

// startStdio runs chapter as the SDK's command transport does.
func startStdio(t *testing.T, chapter string) (mcp.Transport, func(t *testing.T)) {
	cmd := exec.Command(filepath.Join(bin, chapter))
	return &mcp.CommandTransport{Command: cmd}, func(t *testing.T) {
		if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
			t.Errorf("%s did not exit cleanly: %v", chapter, cmd.ProcessState)
		}
	}
}

// forEachEra connects the SDK client to chapter over each transport in each
// era and calls f.
func forEachEra(t *testing.T, chapter string, f func(t *testing.T, ctx context.Context, cs *mcp.ClientSession)) {
	for _, tr := range transports {
		for _, era := range eras {
			t.Run(tr.name+"/"+era.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
				defer cancel()
				client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, nil)
				transport, exited := tr.start(t, chapter)
				cs, err := client.Connect(ctx, transport, era.opts)
				if err != nil {
					t.Fatalf("connecting to %s: %v", chapter, err)
				}
				defer func() {
					if err := cs.Close(); err != nil {
						t.Errorf("closing: %v", err)
					}
					exited(t)
				}()
				if v := cs.InitializeResult().ProtocolVersion; v != era.version {
					t.Fatalf("connected at %s, want %s", v, era.version)
				}
				f(t, ctx, cs)
			})
		}
	}
}

// text returns the text of a one-block result.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content blocks, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	return tc.Text
}

// wireError returns the JSON-RPC error err carries, failing if it has none.
func wireError(t *testing.T, err error) *jsonrpc.Error {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("error %v (%T), want a JSON-RPC error", err, err)
	}
	return werr
}

func TestToolErrors(t *testing.T) {
	forEachEra(t, "01-tool-errors", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "get_author" {
			t.Fatalf("tools/list: %v, %v", tools, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Dune"}})
		if err != nil || res.IsError || text(t, res) != "Frank Herbert" {
			t.Errorf("get_author Dune: %v, %v", res, err)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Nothing"}})
		if err != nil {
			t.Fatalf("get_author Nothing: %v, want a tool error result", err)
		}
		if want := "Error executing tool get_author: No book titled 'Nothing' in the catalog."; !res.IsError || text(t, res) != want {
			t.Errorf("get_author Nothing: isError %v, text %q; want isError and %q", res.IsError, text(t, res), want)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": 42}})
		if err != nil || !res.IsError {
			t.Errorf("get_author 42: %v, %v; want a tool error result", res, err)
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_title", Arguments: map[string]any{}})
		if werr := wireError(t, err); werr.Code != jsonrpc.CodeInvalidParams || werr.Message != "Unknown tool: get_title" {
			t.Errorf("unknown tool: %d %q", werr.Code, werr.Message)
		}
	})
}

func TestProtocolErrors(t *testing.T) {
	forEachEra(t, "02-protocol-errors", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Dune"}})
		if err != nil || res.IsError || text(t, res) != "Frank Herbert" {
			t.Errorf("get_author Dune: %v, %v", res, err)
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Nothing"}})
		werr := wireError(t, err)
		if want := "No book titled 'Nothing' in the catalog."; werr.Code != jsonrpc.CodeInvalidParams || werr.Message != want || werr.Data != nil {
			t.Errorf("get_author Nothing: %d %q %s, want %d %q and no data", werr.Code, werr.Message, werr.Data, jsonrpc.CodeInvalidParams, want)
		}
	})
}

func TestResources(t *testing.T) {
	forEachEra(t, "03-resources", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		tmpls, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(tmpls.ResourceTemplates) != 1 || tmpls.ResourceTemplates[0].URITemplate != "books://{title}" {
			t.Fatalf("resources/templates/list: %v, %v", tmpls, err)
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "books://Dune"})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "Dune by Frank Herbert" {
			t.Errorf("read books://Dune: %v, %v", res, err)
		}
		for uri, message := range map[string]string{
			"books://Nothing": "No book titled 'Nothing' in the catalog.",
			"films://Dune":    "Unknown resource: films://Dune",
		} {
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			werr := wireError(t, err)
			var data struct{ URI string }
			if json.Unmarshal(werr.Data, &data) != nil || werr.Code != jsonrpc.CodeInvalidParams || werr.Message != message || data.URI != uri {
				t.Errorf("read %s: %d %q %s, want %d %q with data.uri", uri, werr.Code, werr.Message, werr.Data, jsonrpc.CodeInvalidParams, message)
			}
		}
	})
}

func TestHandlerFailures(t *testing.T) {
	forEachEra(t, "04-handler-failures", func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		call := func(ctx context.Context, tool, title string) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"title": title}})
		}
		// A panic: a bare tool error, and the server goes on.
		res, err := call(ctx, "get_author", "Beowulf")
		if err != nil || !res.IsError || text(t, res) != "Error executing tool get_author" {
			t.Errorf("get_author Beowulf: %v, %v; want the bare tool error", res, err)
		}
		if res, err := call(ctx, "get_author", "Dune"); err != nil || text(t, res) != "Frank Herbert" {
			t.Errorf("get_author Dune after the panic: %v, %v", res, err)
		}
		// The server's deadline: a tool error the model reads.
		res, err = call(ctx, "check_stock", "Neuromancer")
		want := "Error executing tool check_stock: The warehouse did not answer within 250ms; try again later (context deadline exceeded)."
		if err != nil || !res.IsError || text(t, res) != want {
			t.Errorf("check_stock Neuromancer: %v, %v; want the tool error %q", res, err, want)
		}
		// The client's deadline: a local error, not one the server sent.
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err = call(short, "wait_for_stock", "Neuromancer")
		var werr *jsonrpc.Error
		if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &werr) {
			t.Errorf("wait_for_stock past the client's deadline: %v, want context.DeadlineExceeded and no JSON-RPC error", err)
		}
		if res, err := call(ctx, "get_author", "Dune"); err != nil || text(t, res) != "Frank Herbert" {
			t.Errorf("get_author Dune after the cancelled call: %v, %v", res, err)
		}
	})
}
