package main

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestPagesWorkflow checks that the Pages workflow publishes the guide at
// defaultBaseURL, the address the site names when built without -base-url,
// and only for a commit of main whose CI passed.
func TestPagesWorkflow(t *testing.T) {
	pages := readWorkflow(t, "pages.yml")
	build := regexp.MustCompile(`(?m)^\s*run: go run \./docs build (.*)$`).FindStringSubmatch(pages)
	if build == nil {
		t.Fatal(".github/workflows/pages.yml has no step that runs go run ./docs build")
	}
	url := regexp.MustCompile(`-base-url[ =](\S+)`).FindStringSubmatch(build[1])
	switch {
	case url == nil:
		t.Errorf(".github/workflows/pages.yml builds the site without -base-url; want -base-url %s", defaultBaseURL)
	case url[1] != defaultBaseURL:
		t.Errorf(".github/workflows/pages.yml publishes at %s, but docs/main.go's defaultBaseURL is %s: make them agree", url[1], defaultBaseURL)
	}

	ci := regexp.MustCompile(`(?m)^name: (.+)$`).FindStringSubmatch(readWorkflow(t, "ci.yml"))
	if ci == nil {
		t.Fatal(".github/workflows/ci.yml has no name for the Pages workflow to follow")
	}
	for _, want := range []string{
		"workflows: [" + ci[1] + "]",
		"branches: [main]",
		"github.event.workflow_run.conclusion == 'success'",
		"ref: ${{ github.event.workflow_run.head_sha }}",
	} {
		if !strings.Contains(pages, want) {
			t.Errorf(".github/workflows/pages.yml lacks %q: it must deploy only a commit of main whose CI (%q) passed, and that commit", want, ci[1])
		}
	}
}

// readWorkflow returns the text of a workflow in .github/workflows.
func readWorkflow(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", ".github", "workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
