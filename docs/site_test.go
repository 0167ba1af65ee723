package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
