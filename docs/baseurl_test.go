package main

import (
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/site"
)

// TestBaseURL checks that the guide is built under defaultBaseURL, an
// address the site accepts: its sitemap lists the pages there, and
// llms.txt links them there.
func TestBaseURL(t *testing.T) {
	if base, err := site.ParseBaseURL(defaultBaseURL); err != nil || base != defaultBaseURL {
		t.Fatalf("defaultBaseURL %q: %q, %v; want it as it is", defaultBaseURL, base, err)
	}
	s := testSite(t)
	if !strings.Contains(string(s.Files["sitemap.xml"]), "<loc>"+defaultBaseURL+"tool-errors.html</loc>") {
		t.Errorf("sitemap.xml does not list tool-errors.html under %s", defaultBaseURL)
	}
	if !strings.Contains(string(s.Files["llms.txt"]), "]("+defaultBaseURL+"tool-errors.md)") {
		t.Errorf("llms.txt does not link tool-errors.md under %s", defaultBaseURL)
	}
}

// TestBuildBadBaseURL checks that build refuses a base URL that is not an
// absolute http(s) address, before it compiles anything.
func TestBuildBadBaseURL(t *testing.T) {
	for _, bad := range []string{"example.org/guide", "/guide/", "ftp://example.org/"} {
		err := build(t.TempDir(), []string{"-base-url", bad})
		if err == nil || !strings.Contains(err.Error(), "-base-url") || !strings.Contains(err.Error(), "not an absolute http or https address") {
			t.Errorf("build -base-url %s: %v, want the flag's error", bad, err)
		}
	}
}
