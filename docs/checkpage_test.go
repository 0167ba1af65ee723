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

// TestCheckPageReadsItsExample holds the page's reading of the pinned
// check of mcp-go's chapter 01 (section example) to the pin: when a
// verdict changes, the reading must be rewritten with it.
func TestCheckPageReadsItsExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(checkTranscripts[1])))
	if err != nil {
		t.Fatal(err)
	}
	pin := string(b)
	for _, want := range []struct {
		line  string // the start of a verdict's first line
		count int
	}{
		{"as the guide · unknown-tool ·", 1},
		{"against a SHOULD · validation ·", 4},
		{"as the guide · malformed-line ·", 1},
		{"as the guide · unknown-method ·", 1},
		{`as the guide · invalid-request · "jsonrpc": "1.0"`, 1},
		{"another answer the spec allows · invalid-request · an id that is an object", 1},
		{"another answer the spec allows · batch ·", 1},
		{"against a MUST · unsupported-version ·", 1},
		{"against a MUST ·", 1},
		{"leaks internals ·", 0},
		{"not checked · resource-not-found", 1},
		{"as the guide · internals", 1},
	} {
		n := 0
		for l := range strings.Lines(pin) {
			if strings.HasPrefix(l, want.line) {
				n++
			}
		}
		if n != want.count {
			t.Errorf("%s has %d verdicts %q, and docs/check/en.md, section example, reads it as having %d: rewrite the reading for the new output, then this test", checkTranscripts[1], n, want.line, want.count)
		}
	}
	if !strings.HasSuffix(pin, "$ echo $?\n5\n") {
		t.Errorf("%s does not end with the exit status 5 that docs/check/en.md, section example, explains", checkTranscripts[1])
	}
}
