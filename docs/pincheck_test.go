package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// echoChapter is the fixture's chapter: a server that answers each request
// with its greeting, or "pong" for any method but hello.
const echoChapter = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

const greeting = "hello"

func main() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage ` + "`json:\"id\"`" + `
			Method string
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		text := "pong"
		if req.Method == "hello" {
			text = greeting
		}
		fmt.Printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"text\":%q}}\n", req.ID, text)
	}
}
`

// pinFixture writes a module with one chapter, its archive of two pinned
// cases and a page, other.html, that shows both, and returns its root.
func pinFixture(t *testing.T) string {
	t.Helper()
	root := liveFixture(t)
	files := map[string]string{
		"go.mod":                   "module example.com/pinfixture\n\ngo 1.22\n",
		"chapters/01-echo/main.go": echoChapter,
		"docs/other/en.md": "---\ntitle: Other\n---\n\n" +
			":::transcript testdata/scripts/01-echo/modern.txtar hello\n\n:::transcript testdata/scripts/01-echo/modern.txtar ping\n",
		"testdata/scripts/01-echo/modern.txtar": "exchange req/hello.jsonl 01-echo\npin stdout want/hello.jsonl\n" +
			"exchange req/ping.jsonl 01-echo\npin stdout want/ping.jsonl\n\n" +
			"-- req/hello.jsonl --\n" + `{"jsonrpc":"2.0","id":1,"method":"hello"}` + "\n" +
			"-- want/hello.jsonl --\n" + `{"jsonrpc":"2.0","id":1,"result":{"text":"hello"}}` + "\n" +
			"-- req/ping.jsonl --\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n" +
			"-- want/ping.jsonl --\n" + `{"jsonrpc":"2.0","id":2,"result":{"text":"pong"}}` + "\n",
	}
	for name, text := range files {
		writeSource(t, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	return root
}

// TestStalePinMarked serves a small module while its chapter is edited: the
// pins' check, which builds the chapter and replays its cases, marks the
// transcript whose reply changed, with the command that refreshes it, and
// only that one; pins refreshed to the new reply clear the mark. The
// static build never marks. Each step waits for what the server says or
// for the build events the open pages hear.
func TestStalePinMarked(t *testing.T) {
	root := pinFixture(t)
	client := &http.Client{Transport: &http.Transport{}}
	tl := serveTest(t, &liveSite{root: root, compile: noBrowser, pins: newPinCheck(root)}, "127.0.0.1:0")
	stream := listen(t, client, tl.url)
	stream.next(t, "connecting")

	// The first check, which builds the chapter, finds the pins current.
	tl.log.waitFor(t, "Checked the pins of chapters/01-echo: 2 case(s), 0 stale.", buildTimeout)
	if _, page := get(t, client, tl.url+"/other.html"); strings.Contains(page, "stale-pin") || !strings.Contains(page, `id="t01-modern-hello"`) {
		t.Fatalf("with current pins, the page is\n%s", page)
	}

	// marked waits for build events until the page holds want stale marks,
	// and returns it.
	marked := func(after string, want int) string {
		t.Helper()
		for {
			code, page := get(t, client, tl.url+"/other.html")
			if code == http.StatusOK && strings.Count(page, `class="stale-pin"`) == want {
				return page
			}
			select {
			case _, ok := <-stream.builds:
				if !ok {
					t.Fatalf("after %s, the event stream ended", after)
				}
			case <-time.After(buildTimeout):
				t.Fatalf("after %s, the page has not %d stale mark(s) within %v:\n%s", after, want, buildTimeout, page)
			}
		}
	}
	main := filepath.Join(root, "chapters", "01-echo", "main.go")
	writeSource(t, main, strings.Replace(echoChapter, `greeting = "hello"`, `greeting = "hello there"`, 1))
	page := marked("an edit to the chapter", 1)
	hello, ping := figureOf(page, "t01-modern-hello"), figureOf(page, "t01-modern-ping")
	for _, want := range []string{
		"<code>go generate ./...</code>",
		"testdata/scripts/01-echo/modern.txtar: case hello: stdout differs from its pin want/hello.jsonl in line 1 at byte",
		"go test ./chapters/01-echo -run",
	} {
		if !strings.Contains(hello, want) {
			t.Errorf("the stale transcript's mark lacks %q:\n%s", want, hello)
		}
	}
	if strings.Contains(ping, "stale-pin") {
		t.Errorf("the transcript whose reply did not change is marked:\n%s", ping)
	}
	s, err := site.Build(config(root, nil))
	if err != nil {
		t.Fatal(err)
	}
	if page := string(s.Files["other.html"]); strings.Contains(page, "stale-pin") || !strings.Contains(page, `id="t01-modern-hello"`) {
		t.Errorf("the static build marks a transcript, or lacks it:\n%s", page)
	}

	archive := filepath.Join(root, "testdata", "scripts", "01-echo", "modern.txtar")
	src, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	writeSource(t, archive, strings.Replace(string(src), `"text":"hello"`, `"text":"hello there"`, 1))
	marked("the pins refreshed", 0)
}

// figureOf returns the figure with the given id in page, or "".
func figureOf(page, id string) string {
	_, rest, ok := strings.Cut(page, `id="`+id+`"`)
	if !ok {
		return ""
	}
	fig, _, _ := strings.Cut(rest, "</figure>")
	return fig
}
