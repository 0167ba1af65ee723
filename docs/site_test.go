package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// testRoot is the repository, seen from this package's directory.
const testRoot = ".."

// buildSite renders the whole guide, as go run ./docs build would.
func buildSite(t testing.TB, live bool) *site.Site {
	t.Helper()
	s, err := site.Build(config(testRoot, live))
	if err != nil {
		t.Fatalf("the guide does not build:\n%v", err)
	}
	return s
}

// TestBuild renders every page of the guide, static and live; Build fails on
// any unresolved directive, broken include, link or anchor.
func TestBuild(t *testing.T) {
	for _, live := range []bool{false, true} {
		s := buildSite(t, live)
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
				t.Errorf("live=%v: page %s was not rendered", live, slug)
			}
		}
	}
}

// BenchmarkBuild measures a full render of the site: every page, every
// language, the search index and the link check.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		buildSite(b, false)
	}
}

// TestLiveTranscripts sends every transcript's requests to its chapter's
// real server, as the Run buttons do, and requires the pinned replies.
func TestLiveTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every chapter; skipped in -short mode")
	}
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	s := buildSite(t, true)
	runner := &site.Runner{Dir: root}
	defer runner.Close()
	runnable := 0
	for key, tr := range s.Transcripts {
		if tr.Chapter == "" {
			continue
		}
		runnable++
		live, err := runner.Run(t.Context(), tr)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		if !slices.Equal(live, tr.Replies) {
			t.Errorf("%s: live replies\n%s\nwant the pinned\n%s", key, strings.Join(live, "\n"), strings.Join(tr.Replies, "\n"))
		}
	}
	if runnable == 0 {
		t.Error("the guide includes no runnable transcript")
	}
}

// TestWriteDir writes the static site and checks that it is whole: every
// file, and no Run button.
func TestWriteDir(t *testing.T) {
	s := buildSite(t, false)
	dir := t.TempDir()
	if err := s.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range s.Files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not written as built (%v)", name, err)
		}
		if strings.HasSuffix(name, ".html") && strings.Contains(string(got), `class="run-button"`) {
			t.Errorf("%s: a static page has a Run button", name)
		}
	}
}

// TestLiveSiteRebuilds checks that the served guide follows its sources:
// an edit is served after the next request, and a source that breaks the
// build is reported instead of the page.
func TestLiveSiteRebuilds(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "docs"), os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"chapters", "cmd", "deploy", "mcp", "testdata/scripts"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join(testRoot, dir))); err != nil {
			t.Fatal(err)
		}
	}
	live := &liveSite{root: root, runner: &site.Runner{Dir: root}}
	get := func() (int, string) {
		w := httptest.NewRecorder()
		live.ServeHTTP(w, httptest.NewRequest("GET", "/overview.html", nil))
		return w.Code, w.Body.String()
	}
	if code, body := get(); code != http.StatusOK || !strings.Contains(body, "The question that decides") {
		t.Fatalf("first build: %d\n%.200s", code, body)
	}
	page := filepath.Join(root, "docs", "overview", "en.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(b []byte) {
		if err := os.WriteFile(page, b, 0o644); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Second)
		if err := os.Chtimes(page, later, later); err != nil {
			t.Fatal(err)
		}
	}
	edit(append(src, "\nA sentence added while serving.\n"...))
	if _, body := get(); !strings.Contains(body, "A sentence added while serving.") {
		t.Error("an edit is not served")
	}
	edit(append(src, "\n:::go chapters/01-tool-errors/main.go nothingByThatName\n"...))
	if code, body := get(); code != http.StatusInternalServerError || !strings.Contains(body, "no declaration named nothingByThatName") {
		t.Errorf("a broken build is served as %d\n%.300s", code, body)
	}
}
