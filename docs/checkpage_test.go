package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checkTranscripts are the pinned outputs of mcpc check, from the
// repository's root.
var checkTranscripts = []string{"cmd/mcpc/testdata/script/check.txtar", "cmd/mcpc/testdata/check/mcpgo-01-tool-errors.txt"}

// guideLink finds the section a verdict of a pinned check links, at the
// guide's default address, in English.
var guideLink = regexp.MustCompile(`guide: https://mcpbookshop\.github\.io/guide/([a-z-]+\.html#[a-z0-9-]+)`)

// TestCheckPageLinksEveryLesson checks that the page Check your server
// links every section of the guide that a pinned check's verdicts link, so
// that the page's table of lessons leaves none out.
func TestCheckPageLinksEveryLesson(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("check", "en.md"))
	if err != nil {
		t.Fatal(err)
	}
	var sections []string
	for _, name := range checkTranscripts {
		b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range guideLink.FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains(sections, m[1]) {
				sections = append(sections, m[1])
			}
		}
	}
	if len(sections) < 10 {
		t.Fatalf("the pinned checks link only %d sections (%v): did their output change shape?", len(sections), sections)
	}
	for _, s := range sections {
		if !strings.Contains(string(page), "]("+s+")") {
			t.Errorf("docs/check/en.md does not link %s, which a verdict of the pinned checks links: give its lesson a row in the section What it sends", s)
		}
	}
}
