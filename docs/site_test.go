package main

import (
	"os"
	"path/filepath"
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
