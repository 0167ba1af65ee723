package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// liveTimeout bounds each wait of the live reload's tests: a rebuild of the
// small fixture takes milliseconds and the watcher looks every
// watchInterval, so this is slack for a busy machine, not a sleep.
const liveTimeout = 10 * time.Second

// liveFixture writes a small repository into a temporary folder: two
// English pages with the guide's theme and strings, and a pins folder;
// it returns its root.
func liveFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"docs/pages.txt":              "index\nother\n",
		"docs/index/en.md":            "---\ntitle: Home\n---\n\nThe first text of the home page. See [the other page](other.html).\n",
		"docs/other/en.md":            "---\ntitle: Other\n---\n\nThe other page.\n\n## Wire {#wire}\n\nMore.\n",
		"testdata/scripts/01/a.txtar": "-- request --\n",
	}
	for _, name := range []string{"theme/page.html", "theme/style.css", "theme/site.js", "lang/en.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files["docs/"+name] = string(b)
	}
	for name, text := range files {
		writeSource(t, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	return root
}

// writeSource writes a source file as an editor saves it, dated a second
// ahead, so that the sources' stamp changes even where file times are
// coarse.
func writeSource(t testing.TB, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}

// noBrowser stands in for the chapters compiled for the browser: the
// fixture has none, and a page without transcripts needs none.
func noBrowser(context.Context, string) (*site.Browser, error) {
	return &site.Browser{WasmExec: []byte("// wasm_exec.js\n")}, nil
}

// testLive is a live site served on a loopback port, and what it said.
type testLive struct {
	live *liveSite
	url  string
	log  syncBuffer
	stop context.CancelFunc
	done chan error // serveLive's error, once stopped
	once sync.Once
}

// startLive serves the repository at root on addr ("127.0.0.1:0" for any
// port), as go run ./docs does, until stopped or t ends; what the live
// site says is logged only if t fails.
func startLive(t testing.TB, root, addr string, compile func(context.Context, string) (*site.Browser, error)) *testLive {
	t.Helper()
	return serveTest(t, &liveSite{root: root, compile: compile}, addr)
}

// serveTest is startLive for a live site of the test's making, whose log
// it sets.
func serveTest(t testing.TB, live *liveSite, addr string) *testLive {
	t.Helper()
	tl := &testLive{live: live, done: make(chan error, 1)}
	live.log = &tl.log
	tl.live.current()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	tl.url = "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	tl.stop = cancel
	go func() { tl.done <- serveLive(ctx, ln, tl.live) }()
	t.Cleanup(func() {
		tl.shutdown(t)
		if t.Failed() {
			t.Logf("the live site said:\n%s", tl.log.String())
		}
	})
	return tl
}

// shutdown stops the server, and fails t unless it stops in time.
func (tl *testLive) shutdown(t testing.TB) {
	t.Helper()
	tl.once.Do(func() {
		tl.stop()
		select {
		case err := <-tl.done:
			if err != nil {
				t.Errorf("serveLive: %v", err)
			}
		case <-time.After(liveTimeout):
			t.Errorf("the live server did not shut down in %v with a page listening", liveTimeout)
		}
	})
}

// syncBuffer is a bytes.Buffer that a server and a test may share.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed by the next Write, for waitFor
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wrote != nil {
		close(b.wrote)
		b.wrote = nil
	}
	return b.b.Write(p)
}

// waitFor waits until the buffer holds s, and fails t if it does not
// within limit.
func (b *syncBuffer) waitFor(t testing.TB, s string, limit time.Duration) {
	t.Helper()
	deadline := time.After(limit)
	for {
		b.mu.Lock()
		if strings.Contains(b.b.String(), s) {
			b.mu.Unlock()
			return
		}
		if b.wrote == nil {
			b.wrote = make(chan struct{})
		}
		wrote := b.wrote
		b.mu.Unlock()
		select {
		case <-wrote:
		case <-deadline:
			t.Fatalf("waited %v for the server to say %q; it said:\n%s", limit, s, b.String())
		}
	}
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// liveClient reads the live reload's event stream as a page does.
type liveClient struct {
	builds chan string // the data of each build event; closed when the stream ends
}

// listen opens the event stream of the server at url.
func listen(t *testing.T, client *http.Client, url string) *liveClient {
	t.Helper()
	resp, err := client.Get(url + livePath)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("GET %s = %d %s, want an event stream", livePath, resp.StatusCode, ct)
	}
	c := &liveClient{builds: make(chan string, 16)}
	go func() {
		defer resp.Body.Close()
		defer close(c.builds)
		var event, data string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if event == "build" {
					c.builds <- data
				}
				event, data = "", ""
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return c
}

// next waits for the next build event, and fails t if none comes in time.
func (c *liveClient) next(t *testing.T, after string) string {
	t.Helper()
	select {
	case b, ok := <-c.builds:
		if !ok {
			t.Fatalf("after %s, the event stream ended", after)
		}
		return b
	case <-time.After(liveTimeout):
		t.Fatalf("after %s, no build event in %v", after, liveTimeout)
	}
	return ""
}

// ended waits for the stream to end, and fails t if it sends another build
// or does not end in time.
func (c *liveClient) ended(t *testing.T) {
	t.Helper()
	deadline := time.After(liveTimeout)
	for {
		select {
		case b, ok := <-c.builds:
			if !ok {
				return
			}
			t.Errorf("the stream sent build %s after the shutdown", b)
		case <-deadline:
			t.Fatalf("the event stream did not end in %v after the shutdown", liveTimeout)
		}
	}
}

// get fetches a page of the server at url.
func get(t *testing.T, client *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// liveMeta returns the meta element that names build.
func liveMeta(build string) string { return `<meta name="live-reload" content="` + build + `">` }

// TestLiveReload edits a temporary copy of a small docs tree while it is
// served: the event stream names the current build on connecting, and the
// new one after an edit to a page, to a pin, and an edit that breaks a page
// (then served as an error page, the other page as usual); shutting the
// server down ends the stream, and leaves no goroutine behind.
func TestLiveReload(t *testing.T) {
	before := runtime.NumGoroutine()
	root := liveFixture(t)
	transport := &http.Transport{}
	client := &http.Client{Transport: transport}
	tl := startLive(t, root, "127.0.0.1:0", noBrowser)

	stream := listen(t, client, tl.url)
	build := stream.next(t, "connecting")
	code, page := get(t, client, tl.url+"/index.html")
	if code != http.StatusOK || !strings.Contains(page, liveMeta(build)) {
		t.Fatalf("GET /index.html = %d, want the page of build %s:\n%.400s", code, build, page)
	}

	edits := []struct {
		what, file, text string
		page             string // served after the edit
		code             int
		want             []string
	}{
		{"an edit to a page", "docs/index/en.md", "---\ntitle: Home\n---\n\nThe second text of the home page. See [the other page](other.html).\n",
			"/index.html", http.StatusOK, []string{"The second text of the home page."}},
		{"a new pin", "testdata/scripts/01/b.txtar", "-- request --\n",
			"/index.html", http.StatusOK, []string{"The second text of the home page."}},
		{"an edit that breaks a page", "docs/other/en.md", "---\ntitle: Other\n---\n\n## Wire\n",
			"/other.html", http.StatusInternalServerError, []string{"<code>docs/other/en.md</code>", "heading &#34;Wire&#34;", "How to fix it"}},
		{"the fix", "docs/other/en.md", "---\ntitle: Other\n---\n\n## Wire {#wire}\n\nFixed.\n",
			"/other.html", http.StatusOK, []string{"Fixed."}},
	}
	for _, e := range edits {
		start := time.Now()
		writeSource(t, filepath.Join(root, filepath.FromSlash(e.file)), e.text)
		next := stream.next(t, e.what)
		t.Logf("%s: the build event came %v after the save", e.what, time.Since(start).Round(time.Millisecond))
		if next == build {
			t.Fatalf("after %s, the event names the same build %s", e.what, build)
		}
		build = next
		code, page := get(t, client, tl.url+e.page)
		if code != e.code || !strings.Contains(page, liveMeta(build)) {
			t.Errorf("after %s, GET %s = %d, want %d, of build %s:\n%.400s", e.what, e.page, code, e.code, build, page)
		}
		for _, want := range e.want {
			if !strings.Contains(page, want) {
				t.Errorf("after %s, GET %s lacks %q:\n%s", e.what, e.page, want, page)
			}
		}
		if e.code != http.StatusOK {
			if code, _ := get(t, client, tl.url+"/index.html"); code != http.StatusOK {
				t.Errorf("after %s, GET /index.html = %d, want the page that builds", e.what, code)
			}
		}
	}

	if tl.live.streams() != 1 {
		t.Errorf("%d streams open, want 1", tl.live.streams())
	}
	tl.shutdown(t)
	stream.ended(t)
	transport.CloseIdleConnections()
	deadline := time.Now().Add(liveTimeout)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines after the shutdown, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLiveReconnect restarts the server on the same port, as a
// contributor does: a stream opened then learns the new build's name, the
// same as before if no source changed, another if one did.
func TestLiveReconnect(t *testing.T) {
	root := liveFixture(t)
	client := &http.Client{Transport: &http.Transport{}}
	first := startLive(t, root, "127.0.0.1:0", noBrowser)
	build := listen(t, client, first.url).next(t, "connecting")
	addr := strings.TrimPrefix(first.url, "http://")
	first.shutdown(t)

	again := startLive(t, root, addr, noBrowser)
	if got := listen(t, client, again.url).next(t, "a restart"); got != build {
		t.Errorf("after a restart with no change, the build is %s, was %s: open pages would reload for nothing", got, build)
	}
	again.shutdown(t)
	writeSource(t, filepath.Join(root, "docs", "index", "en.md"), "---\ntitle: Home\n---\n\nEdited while the server was down.\n")
	third := startLive(t, root, addr, noBrowser)
	if got := listen(t, client, third.url).next(t, "a restart after an edit"); got == build {
		t.Errorf("after a restart with an edit, the build is still %s: open pages would not reload", got)
	}
}

// TestLiveRunButtons edits the chapter of a small module while it is
// served, with a compile of its browser module that waits for the test: the
// edit is served at once, without the chapter's Run buttons, since its
// module no longer matches it, and the page gets them back once the module
// is compiled again; an edit to a page alone keeps them.
func TestLiveRunButtons(t *testing.T) {
	root := pinFixture(t)
	client := &http.Client{Transport: &http.Transport{}}
	release := make(chan struct{})
	compiles := 0
	compile := func(context.Context, string) (*site.Browser, error) {
		if compiles++; compiles > 1 {
			<-release
		}
		return &site.Browser{Modules: map[string][]byte{"chapters/01-echo": []byte("module")}, WasmExec: []byte("// wasm_exec.js\n")}, nil
	}
	tl := startLive(t, root, "127.0.0.1:0", compile)
	t.Cleanup(func() { // before the server's shutdown, which waits for the compile
		select {
		case <-release:
		default:
			close(release)
		}
	})
	stream := listen(t, client, tl.url)
	build := stream.next(t, "connecting")
	const run = `data-module="01-echo"`
	page := func(when string, want int) {
		t.Helper()
		if _, page := get(t, client, tl.url+"/other.html"); strings.Count(page, run) != want || !strings.Contains(page, liveMeta(build)) {
			t.Fatalf("%s, the page of build %s has %d Run button(s), want %d:\n%s", when, build, strings.Count(page, run), want, page)
		}
	}
	page("before an edit", 2)

	writeSource(t, filepath.Join(root, "docs", "index", "en.md"), "---\ntitle: Home\n---\n\nEdited.\n")
	build = stream.next(t, "an edit to a page")
	page("after an edit to a page", 2)

	main := filepath.Join(root, "chapters", "01-echo", "main.go")
	writeSource(t, main, strings.Replace(echoChapter, `greeting = "hello"`, `greeting = "hello there"`, 1))
	build = stream.next(t, "an edit to the chapter")
	page("after an edit to the chapter, while its module is compiled", 0)
	close(release)
	build = stream.next(t, "the module compiled")
	page("once the module is compiled", 2)
}
