package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpbookshop/guide/internal/site"
)

// testRoot is the repository, seen from this package's directory.
const testRoot = ".."

// testBrowser is the chapters compiled for the browser, once for all the
// tests: compiling them is part of go test ./..., so a change that breaks
// the browser build fails it.
var testBrowser = sync.OnceValues(func() (*site.Browser, error) {
	root, err := filepath.Abs(testRoot)
	if err != nil {
		return nil, err
	}
	return compileBrowser(context.Background(), root, io.Discard)
})

// builtSite is the whole guide with its Run buttons, as go run ./docs
// build renders it, once for all the tests, which only read it.
var builtSite = sync.OnceValues(func() (*site.Site, error) {
	browser, err := testBrowser()
	if err != nil {
		return nil, fmt.Errorf("compiling the chapters for the browser: %v", err)
	}
	return site.Build(config(testRoot, browser))
})

// testSite returns builtSite, or fails t.
func testSite(t testing.TB) *site.Site {
	t.Helper()
	s, err := builtSite()
	if err != nil {
		t.Fatalf("the guide does not build:\n%v", err)
	}
	return s
}

// TestBuild renders every page of the guide; Build fails on any unresolved
// directive, broken include, link or anchor. Every chapter with
// transcripts has its module, and every transcript of a chapter its Run
// button.
func TestBuild(t *testing.T) {
	s := testSite(t)
	slugs, err := os.ReadFile(filepath.Join(testRoot, "docs", "pages.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(slugs)) {
		slug := strings.TrimSpace(line)
		if slug == "" || strings.HasPrefix(slug, "#") {
			continue
		}
		if _, ok := s.Files[slug+".html"]; !ok {
			t.Errorf("page %s was not rendered", slug)
		}
	}
	chapters, err := site.ChapterDirs(os.DirFS(testRoot))
	if err != nil || len(chapters) == 0 {
		t.Fatalf("no chapters (%v)", err)
	}
	for _, c := range chapters {
		if _, ok := s.Files["assets/run/"+filepath.Base(c)+".0.js"]; !ok {
			t.Errorf("%s has no module in the site", c)
		}
	}
	if !bytes.Contains(s.Files["assets/run/wasm_exec.js"], []byte("globalThis.Go")) {
		t.Error("the site has no wasm_exec.js from the toolchain")
	}
	for key, tr := range s.Transcripts {
		if tr.Chapter == "" {
			continue
		}
		page := string(s.Files[pageOf(t, s, tr)])
		at := strings.Index(page, `id="`+tr.ID()+`"`)
		end := strings.Index(page[at:], "</figure>")
		if at < 0 || end < 0 {
			t.Fatalf("%s: not on its page", key)
		}
		// A case the script runs with flags of its own (-leak) gets none:
		// the page runs the chapter as it is.
		if has := strings.Contains(page[at:at+end], `class="run-button"`); has != (tr.Args == nil) {
			t.Errorf("%s (flags %q): Run button %v, want %v", key, tr.Args, has, tr.Args == nil)
		}
	}
}

// pageOf returns the English page that includes a transcript.
func pageOf(t testing.TB, s *site.Site, tr *site.Transcript) string {
	t.Helper()
	for name, b := range s.Files {
		if strings.HasSuffix(name, ".html") && !strings.Contains(name, "/") && bytes.Contains(b, []byte(`id="`+tr.ID()+`"`)) {
			return name
		}
	}
	t.Fatalf("no page includes %s", tr.Key())
	return ""
}

// BenchmarkBuild measures a full render of the site: every page, every
// language, the search index and the link check.
func BenchmarkBuild(b *testing.B) {
	browser, err := testBrowser()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := site.Build(config(testRoot, browser)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteDir writes the static site and checks that it is whole.
func TestWriteDir(t *testing.T) {
	s := testSite(t)
	dir := t.TempDir()
	if err := s.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range s.Files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not written as built (%v)", name, err)
		}
	}
}

// copyGuide copies what the guide is built from into a temporary folder,
// and returns it: a repository whose sources a test may break.
func copyGuide(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "docs"), os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	// Every folder a page includes a file from, and the core's packages
	// whose lines :::callpath counts, which TestCopiedGuideBuilds holds
	// to the pages.
	for _, dir := range []string{"chapters", "cmd", "deploy", "internal/callpath", "internal/check", "internal/errortable", "internal/jsonwire", "internal/listenaddr", "mcp", "sdks", "testdata/scripts"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join(testRoot, dir))); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestCopiedGuideBuilds checks that copyGuide copies every file the
// pages include: the copy builds as the repository does. A page that
// includes a file from a folder copyGuide leaves out fails here, naming it,
// rather than in the browser tests that serve the copy.
func TestCopiedGuideBuilds(t *testing.T) {
	if _, err := site.Build(config(copyGuide(t), nil)); err != nil {
		t.Fatalf("the copy of the guide does not build (add the folder to copyGuide's list): %v", err)
	}
}

// TestLiveSiteRebuilds checks that the served guide follows its sources:
// an edit is served after the next request, and a source that breaks a
// page is reported in its place while the other pages are served. What the
// live site says is shown only if the test fails.
func TestLiveSiteRebuilds(t *testing.T) {
	root := copyGuide(t)
	var log syncBuffer
	live := &liveSite{root: root, compile: func(context.Context, string) (*site.Browser, error) { return testBrowser() }, log: &log}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the live site said:\n%s", log.String())
		}
	})
	getPage := func(path string) (int, string) {
		w := httptest.NewRecorder()
		live.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w.Code, w.Body.String()
	}
	get := func() (int, string) { return getPage("/overview.html") }
	if code, body := get(); code != http.StatusOK || !strings.Contains(body, "The question that decides") {
		t.Fatalf("first build: %d\n%.200s", code, body)
	}
	page := filepath.Join(root, "docs", "overview", "en.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(b []byte) { writeSource(t, page, string(b)) }
	edit(append(src, "\nA sentence added while serving.\n"...))
	if _, body := get(); !strings.Contains(body, "A sentence added while serving.") {
		t.Error("an edit is not served")
	}
	edit(append(src, "\n:::go chapters/01-tool-errors/main.go nothingByThatName\n"...))
	if code, body := get(); code != http.StatusInternalServerError || !strings.Contains(body, "no declaration named nothingByThatName") || !strings.Contains(body, "<code>docs/overview/en.md</code>") {
		t.Errorf("a broken page is served as %d\n%.300s", code, body)
	}
	// (Its translations show the new English section, so they break with it.)
	for _, other := range []string{"/index.html", "/tool-errors.html", "/fr/tool-errors.html"} {
		if code, body := getPage(other); code != http.StatusOK {
			t.Errorf("with overview/en.md broken, %s is served as %d\n%.300s", other, code, body)
		}
	}
}

// TestRecapLinks checks the Recap's promise: every row of its table links
// to a pinned transcript, or says it has none.
func TestRecapLinks(t *testing.T) {
	s := testSite(t)
	page := string(s.Files["recap.html"])
	table := page[strings.Index(page, "<table>"):strings.Index(page, "</table>")]
	link := regexp.MustCompile(`<a href="([a-z-]*\.html)?#([^"]+)"`)
	rows := strings.Split(table, "<tr>")[2:] // the part before the first row, and the header
	for _, row := range rows {
		cells := strings.Split(row, "<td>")
		last := cells[len(cells)-1]
		if strings.Contains(last, "<em>no transcript</em>") {
			continue
		}
		ok := false
		for _, m := range link.FindAllStringSubmatch(last, -1) {
			target := m[1]
			if target == "" {
				target = "recap.html"
			}
			ok = ok || strings.Contains(string(s.Files[target]), `<figure class="transcript" id="`+m[2]+`"`)
		}
		if !ok {
			t.Errorf("a Recap row links to no pinned transcript and does not say so:\n%s", row)
		}
	}
	if len(rows) < 10 {
		t.Errorf("the Recap's table has %d rows", len(rows))
	}
}

// TestBrowserBuildLeavesOutHTTP keeps the HTTP server out of the chapters'
// browser modules, which cannot use it: with net/http linked in, a module
// grows by a fifth (7.3 to 8.8 MB).
func TestBrowserBuildLeavesOutHTTP(t *testing.T) {
	chapters, err := site.ChapterDirs(os.DirFS(testRoot))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chapters {
		deps, err := goOutput(t.Context(), testRoot, []string{"GOOS=js", "GOARCH=wasm"}, "list", "-deps", "./"+c)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(strings.Fields(deps), "net/http") {
			t.Errorf("%s, built for the browser, links net/http: some file of its packages needs //go:build !js", c)
		}
	}
}

// TestStyleDownloadsNothing checks that the site's style sheets fetch
// nothing, no font above all (each script uses the fonts its readers'
// systems have), and that the pages load only the site's own style sheets
// and scripts.
func TestStyleDownloadsNothing(t *testing.T) {
	s := testSite(t)
	fetches := regexp.MustCompile(`(?i)@import|@font-face|url\(\s*['"]?(data:)?`)
	loads := regexp.MustCompile(`<(?:link|script)[^>]*(?:href|src)="([^"]*)"`)
	for name, b := range s.Files {
		switch {
		case strings.HasSuffix(name, ".css"):
			for _, m := range fetches.FindAllSubmatch(b, -1) {
				if m[1] == nil {
					t.Errorf("%s fetches something: %s", name, m[0])
				}
			}
		case strings.HasSuffix(name, ".html"):
			for _, m := range loads.FindAllSubmatch(b, -1) {
				if u := string(m[1]); strings.Contains(u, ":") && !strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "//") {
					t.Errorf("%s loads %s", name, u)
				}
			}
		}
	}
}
