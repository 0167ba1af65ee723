// Package interop checks that a real MCP client this project did not write,
// the official Go SDK's, talks to each chapter over stdio and over
// Streamable HTTP, in both protocol eras, and sees each chapter's error
// exactly as the guide describes it; and that over HTTP each chapter gives
// the replies its scripts pin over stdio, byte for byte.
package interop

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binaries are the chapters, each built on first use by the test that
// runs it.
var binaries chapterproc.Binaries

// TestMain removes the chapters' binaries after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}

// binary returns the path of chapter's binary, building it on first use
// (inside a test, so that the test cache records the chapter's sources).
func binary(t *testing.T, chapter string) string {
	t.Helper()
	path, err := binaries.Path(chapter)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// scripts is where the chapters' pins are, from this package's directory.
const scripts = "../../testdata/scripts"

// A pin is a reply a chapter's script pins, and what a test that finds
// another says of it: the case, the pin and how to refresh it.
type pin struct {
	exchange.Reply
	help string
}

// pinned returns the reply that chapter's modern-era script pins for the
// case: the texts the tests expect are the pins', held in one place.
func pinned(t *testing.T, chapter, name string) pin {
	t.Helper()
	archive := filepath.Join(scripts, chapter, "modern.txtar")
	r, err := exchange.PinnedReply(archive, name)
	if err != nil {
		t.Fatal(err)
	}
	return pin{r, exchange.PinHelp(archive, "want/"+name+".jsonl")}
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

// startStdio runs chapter as the SDK's command transport does. The
// transport's Close closes the chapter's input, then waits for it to exit,
// and signals it after TerminateDuration: longer here than the
// Options.ShutdownTimeout the chapter may wait for its handlers at the end
// of its input, so that the chapter always exits by itself. With the SDK's
// default, 5 s, both timers could end together on a busy machine, and
// Close then failed to signal a process that had just exited.
func startStdio(t *testing.T, chapter string) (mcp.Transport, func(t *testing.T)) {
	cmd := exec.Command(binary(t, chapter))
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: callTimeout}, func(t *testing.T) {
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

// checkResult fails unless the call gave a result (not a protocol error) whose text and isError are the pinned
// reply's.
func checkResult(t *testing.T, what string, res *mcp.CallToolResult, err error, want pin) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v, want the pinned result %q (isError %v)\n%s", what, err, want.Text, want.IsError, want.help)
		return
	}
	if got := text(t, res); res.IsError != want.IsError || got != want.Text {
		t.Errorf("%s: isError %v, text %q; pinned: isError %v, text %q\n%s", what, res.IsError, got, want.IsError, want.Text, want.help)
	}
}

// checkError fails unless err is the JSON-RPC error of the pinned reply:
// its code, message and data.
func checkError(t *testing.T, what string, err error, want pin) {
	t.Helper()
	if werr := wireError(t, err); werr.Code != int64(want.Code) || werr.Message != want.Text || string(werr.Data) != string(want.Data) {
		t.Errorf("%s: error %d %q data %s; pinned: %d %q data %s\n%s", what, werr.Code, werr.Message, werr.Data, want.Code, want.Text, want.Data, want.help)
	}
}

// TestToolErrors: the SDK's client sees chapter 01's tools, their results
// and their tool errors as pinned (a bound from an mcp tag included), and
// the unknown tool as the pinned protocol error.
func TestToolErrors(t *testing.T) {
	const ch = "01-tool-errors"
	success, toolError, wrongType, unknownTool := pinned(t, ch, "success"), pinned(t, ch, "tool-error"), pinned(t, ch, "wrong-type"), pinned(t, ch, "unknown-tool")
	overLimit := pinned(t, ch, "over-limit")
	forEachEra(t, ch, func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil || len(tools.Tools) != 2 || tools.Tools[0].Name != "get_author" || tools.Tools[1].Name != "list_books" {
			t.Fatalf("tools/list: %v, %v", tools, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_books", Arguments: map[string]any{"limit": 51}})
		checkResult(t, "list_books 51", res, err, overLimit)
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Dune"}})
		checkResult(t, "get_author Dune", res, err, success)
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Nothing"}})
		checkResult(t, "get_author Nothing", res, err, toolError)
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": 42}})
		checkResult(t, "get_author 42", res, err, wrongType)
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_title", Arguments: map[string]any{"author": "Frank Herbert"}})
		checkError(t, "get_title", err, unknownTool)
	})
}

// TestProtocolErrors: the SDK's client sees chapter 02's missing book as
// the pinned protocol error.
func TestProtocolErrors(t *testing.T) {
	const ch = "02-protocol-errors"
	success, protocolError := pinned(t, ch, "success"), pinned(t, ch, "protocol-error")
	forEachEra(t, ch, func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Dune"}})
		checkResult(t, "get_author Dune", res, err, success)
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": "Nothing"}})
		checkError(t, "get_author Nothing", err, protocolError)
	})
}

// TestResources: the SDK's client reads chapter 03's resource, and sees its
// missing book and unknown resource as the pinned errors, with their data.
func TestResources(t *testing.T) {
	const ch = "03-resources"
	success := pinned(t, ch, "success")
	failures := map[string]pin{
		"books://Nothing": pinned(t, ch, "not-found"),
		"films://Dune":    pinned(t, ch, "unknown-resource"),
	}
	forEachEra(t, ch, func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		tmpls, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(tmpls.ResourceTemplates) != 1 || tmpls.ResourceTemplates[0].URITemplate != "books://{title}" {
			t.Fatalf("resources/templates/list: %v, %v", tmpls, err)
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "books://Dune"})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != success.Text {
			t.Errorf("read books://Dune: %v, %v; pinned: the text %q\n%s", res, err, success.Text, success.help)
		}
		for uri, want := range failures {
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			checkError(t, "read "+uri, err, want)
		}
	})
}

// TestHandlerFailures: the SDK's client sees chapter 04's panic and the
// server's deadline as the pinned tool errors, the server going on after
// each; the client's own deadline is a local error.
func TestHandlerFailures(t *testing.T) {
	const ch = "04-handler-failures"
	success, panicked, deadline := pinned(t, ch, "success"), pinned(t, ch, "panic"), pinned(t, ch, "deadline")
	forEachEra(t, ch, func(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
		call := func(ctx context.Context, tool, title string) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"title": title}})
		}
		// A panic: a bare tool error, and the server goes on.
		res, err := call(ctx, "get_author", "Beowulf")
		checkResult(t, "get_author Beowulf", res, err, panicked)
		res, err = call(ctx, "get_author", "Dune")
		checkResult(t, "get_author Dune after the panic", res, err, success)
		// The server's deadline: a tool error the model reads.
		res, err = call(ctx, "check_stock", "Neuromancer")
		checkResult(t, "check_stock Neuromancer", res, err, deadline)
		// The client's deadline: a local error, not one the server sent.
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err = call(short, "wait_for_stock", "Neuromancer")
		var werr *jsonrpc.Error
		if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &werr) {
			t.Errorf("wait_for_stock past the client's deadline: %v, want context.DeadlineExceeded and no JSON-RPC error", err)
		}
		res, err = call(ctx, "get_author", "Dune")
		checkResult(t, "get_author Dune after the cancelled call", res, err, success)
	})
}
