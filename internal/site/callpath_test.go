package site

import (
	"strings"
	"testing"
)

// walkPage is a page that walks the demo core's one pinned call, showing
// or naming all it runs; each test case of TestWalk edits it.
const walkPage = ":::callpath core/walks.json call\n\n" +
	"## Read {#read}\n\n:::go core/core.go Serve read\n\n" +
	"## Handle {#handle}\n\n:::go core/core.go handle pool Request\n:::go chapters/01-demo/main.go shelf.add\n:::also core/core.go helper\n\n" +
	"## Encode {#encode}\n\n:::go core/core.go encode\n"

// TestWalk builds pages held to the demo pin (testdata/repo/core): the
// page that shows or names every function the call runs builds, and each
// way of drifting from the pin fails with a message that names the
// function, its file and the fix.
func TestWalk(t *testing.T) {
	s, err := buildPages(t, en("index", walkPage))
	if err != nil {
		t.Fatalf("the walk page does not build: %v", err)
	}
	md := string(s.Files["index.md"])
	for _, want := range []string{
		"call  tools/call add {\"title\":\"Dune\"}\n      3 functions in 1 file, 1 package; 4 with closures",
		"the core: 10 code lines in 1 file of 1 package,\n  core; tests and comments left out",
		"// helper trims a name.\nfunc helper(s string) string { … }",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the page's Markdown lacks %q:\n%s", want, md)
		}
	}
	for _, tt := range []struct{ name, old, new, want string }{
		{"shown, not run", ":::go core/core.go encode\n", ":::go core/core.go encode unused\n",
			"section encode: :::go core/core.go ... unused: no walked case (call) runs unused (core/core.go): take it off the line; if a case should still run it, the code changed, or the pin is stale (core/walks.json pins what each case runs; go generate ./... writes it)"},
		{"named, not run", ":::also core/core.go helper\n", ":::also core/core.go helper unused\n",
			"section handle: :::also core/core.go ... unused: no walked case (call) runs unused (core/core.go)"},
		{"run, not shown", ":::also core/core.go helper\n", "",
			"section (top): case call runs helper (core/core.go), which the page neither shows nor names: show it with `:::go core/core.go helper` where the walk reaches it, or add it to an `:::also core/core.go` line (core/walks.json pins what each case runs; go generate ./... writes it)"},
		{"a package-level literal not shown", "handle pool Request", "handle Request",
			"case call runs pool (core/core.go), which the page neither shows nor names"},
		{"the handler not shown", ":::go chapters/01-demo/main.go shelf.add\n", "",
			"case call runs shelf.add (chapters/01-demo/main.go), which the page neither shows nor names"},
		{"named twice", ":::also core/core.go helper\n", ":::also core/core.go helper encode\n",
			"section encode: :::go core/core.go ... encode: encode (core/core.go) is named twice, here and by :::also core/core.go"},
		{"also, no such function", ":::also core/core.go helper\n", ":::also core/core.go helper Request\n",
			"core/core.go declares no function Request"},
		{"no such case", ":::callpath core/walks.json call\n", ":::callpath core/walks.json call nope\n",
			"core/walks.json pins no case nope; its cases are call"},
		{"no pin", ":::callpath core/walks.json call\n", ":::callpath core/gone.json call\n",
			"core/gone.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page := strings.Replace(walkPage, tt.old, tt.new, 1)
			if page == walkPage {
				t.Fatalf("the page has no %q", tt.old)
			}
			_, err := buildPages(t, en("index", page))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build error:\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
	// What every session runs, and what runs in some sessions only, may
	// be shown; types are not held.
	extra := strings.Replace(walkPage, ":::go core/core.go encode\n", ":::go core/core.go encode tick\n", 1)
	if _, err := buildPages(t, en("index", extra)); err != nil {
		t.Errorf("a page showing an unsteady function: %v", err)
	}
	// An :::also line belongs to a walk.
	_, err = buildPages(t, en("index", ":::also core/core.go helper\n"))
	if err == nil || !strings.Contains(err.Error(), ":::also core/core.go: an :::also line names what a walked call runs, and the page walks none") {
		t.Errorf("an :::also line without :::callpath: %v", err)
	}
}

// TestWrapList holds the core's package list to lines of at most the width,
// each item whole and in order.
func TestWrapList(t *testing.T) {
	core := []string{"internal/errortable", "internal/jsonwire", "internal/listenaddr", "mcp", "mcp/internal/schema", "mcp/internal/urimatch"}
	for _, tt := range []struct {
		items []string
		width int
		want  string
	}{
		{[]string{"core"}, 64, "core"},
		{[]string{"a", "b"}, 64, "a, b"},
		{core, 64, "internal/errortable, internal/jsonwire, internal/listenaddr, mcp,\n  mcp/internal/schema, mcp/internal/urimatch"},
		{[]string{"abc", "defg", "h"}, 4, "abc,\n  defg,\n  h"},
	} {
		if got := wrapList(tt.items, tt.width, "\n  "); got != tt.want {
			t.Errorf("wrapList(%q, %d) = %q, want %q", tt.items, tt.width, got, tt.want)
		}
	}
}
