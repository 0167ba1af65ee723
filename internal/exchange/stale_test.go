package exchange

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The pinned reply and the output of the package doc's example of a stale
// pin: chapter 01's modern tool error, reworded.
const (
	docPinned = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool get_author: No book titled 'Nothing' in the catalog."}],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"1.0.0"}}}}` + "\n"
	docActual = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool get_author: No book called 'Nothing' in the catalog."}],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Bookshop","version":"1.0.0"}}}}` + "\n"
)

const help = "If the new output is right, refresh the pins from the repository's root, and review them with git diff:\n" +
	"\tgo generate ./...\n" +
	"or, for one package's pins only:\n" +
	"\tgo test ./p -run '^TestScripts$' -update"

func TestStale(t *testing.T) {
	for _, tt := range []struct{ name, want, got, msg string }{
		{
			"a word changed inside a long line",
			docPinned, docActual,
			"case c: stdout differs from its pin want/c.jsonl in line 1 at byte 110:\n" +
				"\tpinned: …cuting tool get_author: No book titled 'Nothing' in the catalog.\"}]…\n" +
				"\tactual: …cuting tool get_author: No book called 'Nothing' in the catalog.\"}]…\n" +
				"\t                                         ^^^\n",
		},
		{
			"a line more",
			"a\nb\n", "a\nb\nc\n",
			"case c: stdout differs from its pin want/c.jsonl: stdout has a line 3 that the pin lacks:\n\tactual: c\n",
		},
		{
			"a line less, and one changed",
			"a\nb\nc\n", "a\nB\n",
			"case c: stdout differs from its pin want/c.jsonl in 2 lines, first in line 2 at byte 1:\n" +
				"\tpinned: b\n" +
				"\tactual: B\n" +
				"\t        ^\n",
		},
		{
			"no final newline",
			"a\n", "a",
			"case c: stdout differs from its pin want/c.jsonl in line 1: the pin ends it with a newline and stdout does not\n",
		},
		{
			"carets count characters, not bytes",
			"héllo wörld\n", "héllo wàrld\n",
			"case c: stdout differs from its pin want/c.jsonl in line 1 at byte 9:\n" +
				"\tpinned: héllo wörld\n" +
				"\tactual: héllo wàrld\n" +
				"\t               ^\n",
		},
		{
			"a long difference keeps its ends",
			"[" + strings.Repeat("a", 100) + "]\n", "[" + strings.Repeat("b", 100) + "]\n",
			"case c: stdout differs from its pin want/c.jsonl in line 1 at byte 2:\n" +
				"\tpinned: [" + strings.Repeat("a", 40) + "…" + strings.Repeat("a", 40) + "]\n" +
				"\tactual: [" + strings.Repeat("b", 40) + "…" + strings.Repeat("b", 40) + "]\n" +
				"\t         " + strings.Repeat("^", 81) + "\n",
		},
		{
			"a tab shown escaped, so the carets line up",
			"x\ty=1\n", "x\ty=2\n",
			"case c: stdout differs from its pin want/c.jsonl in line 1 at byte 5:\n" +
				"\tpinned: x\\ty=1\n" +
				"\tactual: x\\ty=2\n" +
				"\t             ^\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Stale("c", "stdout", "want/c.jsonl", tt.want, tt.got, "./p"); got != tt.msg+help {
				t.Errorf("Stale:\n%s\nwant\n%s", got, tt.msg+help)
			}
		})
	}
}

// TestDocExampleOfStale checks that the package doc shows what Stale
// prints for its example.
func TestDocExampleOfStale(t *testing.T) {
	src, err := os.ReadFile("exchange.go")
	if err != nil {
		t.Fatal(err)
	}
	pin := "want/tool-error.jsonl of " + RootPath(filepath.Join(moduleRoot, "testdata/scripts/01-tool-errors/modern.txtar"))
	msg := Stale("tool-error", "stdout", pin, docPinned, docActual, "./chapters/01-tool-errors")
	var doc strings.Builder
	for line := range strings.Lines(msg) {
		doc.WriteString("//\t" + line)
	}
	if !strings.Contains(string(src), doc.String()+"\n") {
		t.Errorf("the package doc does not show Stale's message; it is\n%s", doc.String())
	}
}
