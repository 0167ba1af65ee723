package site

import (
	"errors"
	"strings"
	"testing"
)

// TestAllProblemsAtOnce builds docs with several problems of different
// kinds on two pages, one a :::go that does not resolve: the build reports
// every one of them in one run, the prose's code spans and the links of
// the page with the broken directive included.
func TestAllProblemsAtOnce(t *testing.T) {
	_, err := Build(Config{Root: testRoot(t), DocsDir: "docs", Docs: testDocs(t,
		en("index", "Intro, on `shelf.add`.\n\n"+
			"## Code {#code}\n\n"+
			":::go chapters/01-demo/main.go remove\n\n"+
			"The `shelf.remove` method, then `shelf.take`, and `addBook`. See [the other page](other.html#nope).\n\n"+
			"## Wire {#wire}\n\n"+
			":::transcript testdata/scripts/01-demo/demo.txtar gone\n\n"+
			"### No id\n"),
		en("other", "See [nowhere](nowhere.html) and `msgs.Missing`.\n"),
	)})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a *BuildError", err)
	}
	t.Logf("%v", err)
	for _, want := range []string{
		"docs/index/en.md: section code: :::go chapters/01-demo/main.go remove: ",
		"docs/index/en.md: section wire: :::transcript testdata/scripts/01-demo/demo.txtar gone: the archive has no case gone",
		`docs/index/en.md: section wire: heading "No id" has no id`,
		"docs/index/en.md: section code: code span `shelf.take` names nothing",
		"docs/index/en.md: section code: code span `addBook` names nothing",
		`docs/index/en.md: section code: link "other.html#nope": other.html has no anchor #nope`,
		`docs/other/en.md: section (top): link "nowhere.html": no such file`,
		"docs/other/en.md: section (top): code span `msgs.Missing` names nothing",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the build's error lacks %q", want)
		}
	}
}
