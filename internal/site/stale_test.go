package site

import (
	"strings"
	"testing"
)

// TestStaleMark builds a page with two transcripts, one of them stale: the
// served guide's build marks that one, in the page's language, with the
// command and the detail escaped; a build without Stale, the static one,
// marks none.
func TestStaleMark(t *testing.T) {
	body := ":::transcript testdata/scripts/01-demo/demo.txtar ok\n\n:::transcript testdata/scripts/01-demo/calls.txtar tool-error\n"
	docs := testDocs(t, en("index", body))
	pin := StalePin{Command: "go generate ./...", Detail: "case ok: stdout differs from its pin want/ok.jsonl <here>"}
	s, err := Build(Config{Root: testRoot(t), Docs: docs, Stale: map[string]StalePin{"testdata/scripts/01-demo/demo.txtar#ok": pin}})
	if err != nil {
		t.Fatal(err)
	}
	page := string(s.Files["index.html"])
	if n := strings.Count(page, `class="stale-pin"`); n != 1 {
		t.Fatalf("the page has %d stale marks, want 1:\n%s", n, page)
	}
	ok, other := figureOf(page, "t01-demo-ok"), figureOf(page, "t01-calls-tool-error")
	for _, want := range []string{
		`<div class="stale-pin" role="note"><p>Out of date: the chapter no longer answers as this pinned transcript shows. Refresh the pins with <code>go generate ./...</code>, then review the diff.</p>`,
		`<summary>What differs</summary><pre tabindex="0">case ok: stdout differs from its pin want/ok.jsonl &lt;here&gt;</pre>`,
	} {
		if !strings.Contains(ok, want) {
			t.Errorf("the stale transcript lacks %s:\n%s", want, ok)
		}
	}
	if ok == "" || other == "" || strings.Contains(other, "stale-pin") {
		t.Errorf("the current transcript is marked, or a transcript is missing:\n%s", page)
	}
	if strings.Contains(string(s.Files["index.md"]), "Out of date") {
		t.Errorf("the page's Markdown carries the mark")
	}

	static := mustBuild(t, en("index", body))
	if page := string(static.Files["index.html"]); strings.Contains(page, "stale-pin") || strings.Contains(page, "Out of date") {
		t.Errorf("a build without Stale marks a transcript:\n%s", page)
	}
}

// figureOf returns the figure with the given id in page, or "".
func figureOf(page, id string) string {
	_, rest, ok := strings.Cut(page, `<figure class="transcript" id="`+id+`">`)
	if !ok {
		return ""
	}
	fig, _, _ := strings.Cut(rest, "</figure>")
	return fig
}
