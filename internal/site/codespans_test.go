package site

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark/text"
)

// spansPage is a page of the fixture whose code spans name Go declarations
// of the fixture, and names of other languages.
const spansPage = "Intro with `shelfTop`, `shelfBottom()` and `shelf.add`.\n\n" +
	":::go chapters/01-demo/main.go limit\n\n" +
	"## Names {#names}\n\n" +
	"`shelves.ErrFull`, `*shelves.Shelf`, `Shelf.Add`, `Options.OnFull`, `Options.MaxBooks`,\n" +
	"`shelves.Options.OnFull` and `errors.Is(err, shelves.ErrFull)`.\n\n" +
	"## Other languages {#other}\n\n" +
	"Python's `ToolError`, `MCPError`, `raise ToolError(\"x\")`, `get_author`, `ctx.error()`,\n" +
	"`shelves.server.fastmcp`; `shelves`, `OnFull`, `window.fetch`, the flag `-shelfPrefix`, JSON's `maxBooks`, `isError`\n" +
	"and `protocolVersion`:\n\n" +
	"```json\n{\"protocolVersion\": \"2025-11-25\"}\n```\n"

// checkedSpans are the code spans of spansPage that name Go declarations;
// every other span of it must not be checked.
var checkedSpans = []string{
	"shelfTop", "shelfBottom()", "shelf.add", "shelves.ErrFull", "*shelves.Shelf", "Shelf.Add", "Options.OnFull",
	"Options.MaxBooks", "shelves.Options.OnFull", "errors.Is(err, shelves.ErrFull)",
}

// fixtureCopy returns a copy of the fixture repository that a test may
// break.
func fixtureCopy(t *testing.T) fstest.MapFS {
	t.Helper()
	root := fstest.MapFS{}
	err := fs.WalkDir(testRoot(t), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(filepath.Join("testdata", "repo", filepath.FromSlash(name)))
		root[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// spanChecks parses and resolves an English page of the given body against
// root, and returns how each of its code spans was checked. A directive
// that does not resolve fails t if strict is set.
func spanChecks(t *testing.T, root fs.FS, file string, body string, strict bool) map[string]spanCheck {
	t.Helper()
	res := newResolver(root, nil)
	p := &page{src: &source{file: file, body: []byte(body)}}
	p.doc = newMarkdown().Parser().Parse(text.NewReader(p.src.body))
	res.src, res.rewrite = p.src.body, func(s string) string { return s }
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if d, ok := n.(*directiveNode); ok {
			if err := res.resolve(d); err != nil && strict {
				t.Errorf("%s: :::%s: %v", file, d.line, err)
			}
		}
	}
	checks := make(map[string]spanCheck)
	if err := res.codeSpans(p, func(s spanSite, c spanCheck) { checks[s.text] = c }); err != nil {
		t.Fatal(err)
	}
	return checks
}

// TestCodeSpans checks which spans are read as Go and that those found
// pass: Python's names, snake_case, JSON names and names qualified by
// something that is not the module's are not checked.
func TestCodeSpans(t *testing.T) {
	checks := spanChecks(t, testRoot(t), "index/en.md", spansPage, true)
	if len(checks) < len(checkedSpans)+10 {
		t.Fatalf("found %d code spans in the page, want more", len(checks))
	}
	for span, c := range checks {
		if want := slices.Contains(checkedSpans, span); c.checked != want {
			t.Errorf("`%s`: checked = %v, want %v", span, c.checked, want)
		}
		if c.problem != "" {
			t.Errorf("`%s`: %s", span, c.problem)
		}
	}
	mustBuild(t, en("index", spansPage))
	// A page that includes no Go code has no bare names checked.
	if c := spanChecks(t, testRoot(t), "index/en.md", "`shelfGone`\n", true)["shelfGone"]; c.checked {
		t.Errorf("a bare name on a page without Go code was checked: %+v", c)
	}
}

// TestCodeSpansRenamed renames, in a copy of the fixture, each kind of
// declaration a code span names, and checks that the build fails naming
// the page, the section, the span and the fix.
func TestCodeSpansRenamed(t *testing.T) {
	for _, tt := range []struct {
		name, file, from, to string
		want                 []string
	}{
		{"function", "chapters/01-demo/main.go", "shelfTop", "shelfHigh", []string{
			"index/en.md: section (top): code span `shelfTop` names nothing that chapters/01-demo declares",
			"if it was renamed, write its new name",
		}},
		{"method", "chapters/01-demo/main.go", ") add(", ") put(", []string{
			"index/en.md: section (top): code span `shelf.add` names nothing: type shelf (in chapters/01-demo) has no field or method add",
		}},
		{"package member", "shelves/shelves.go", "ErrFull", "ErrNoRoom", []string{
			"index/en.md: section names: code span `shelves.ErrFull` names nothing: package shelves (shelves) declares no ErrFull; write the name it has now (go doc ./shelves lists them)",
			"index/en.md: section names: code span `errors.Is(err, shelves.ErrFull)` names nothing",
		}},
		{"field", "shelves/shelves.go", "OnFull func", "OnOverflow func", []string{
			"index/en.md: section names: code span `Options.OnFull` names nothing: type Options (in shelves) has no field or method OnFull; write the name it has now (go doc ./shelves Options lists them)",
			"code span `shelves.Options.OnFull` names nothing: type Options",
		}},
		{"embedded field", "shelves/shelves.go", "MaxBooks int", "Most int", []string{
			"code span `Options.MaxBooks` names nothing: type Options (in shelves) has no field or method MaxBooks",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := fixtureCopy(t)
			src := string(root[tt.file].Data)
			if !strings.Contains(src, tt.from) {
				t.Fatalf("%s has no %q", tt.file, tt.from)
			}
			root[tt.file].Data = []byte(strings.ReplaceAll(src, tt.from, tt.to))
			_, err := Build(Config{Root: root, Docs: testDocs(t, en("index", spansPage))})
			if err == nil {
				t.Fatalf("Build succeeded after renaming %s to %s in %s", tt.from, tt.to, tt.file)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Build error:\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestCodeSpansOfTheGuide checks the English pages of the guide and that
// the rule reads as Go the spans it was made for: a renamed getAuthor,
// mcp.ResourceNotFound or Options.Observe would fail the build.
func TestCodeSpansOfTheGuide(t *testing.T) {
	root := os.DirFS(repoRoot)
	docs := os.DirFS(filepath.Join(repoRoot, "docs"))
	slugs, err := loadOrder(docs)
	if err != nil {
		t.Fatal(err)
	}
	checked := make(map[string]bool)
	for _, slug := range slugs {
		s, err := loadSource(docs, slug, SourceLanguage)
		if err != nil {
			t.Fatal(err)
		}
		for span, c := range spanChecks(t, root, s.file, string(s.body), true) {
			if c.problem != "" {
				t.Errorf("%s: `%s` %s", s.file, span, c.problem)
			}
			if c.checked {
				checked[span] = true
			}
		}
	}
	t.Logf("checked spans: %q", slices.Sorted(maps.Keys(checked)))
	for _, want := range []string{"getAuthor", "authorArgs", "mcp.ResourceNotFound", "Options.Observe", "*mcp.Error", "client.ErrClosed", "HTTPOptions.AllowedHosts"} {
		if !checked[want] {
			t.Errorf("`%s` is not checked", want)
		}
	}
	for _, not := range []string{"isError", "structuredContent", "mcpServers", "errors.Is", "get_author", "Observe", "res.IsError"} {
		if checked[not] {
			t.Errorf("`%s` is checked, but names nothing of the module's Go", not)
		}
	}
}

// overlay is a file system whose files named in files are replaced.
type overlay struct {
	fs.FS
	files fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.FS.Open(name)
}

// TestCodeSpansOfTheGuideRenamed renames, in an overlay of the repository,
// a chapter's function, a package's function and a type's field, and
// checks that the English pages that name them in a code span fail: for
// getAuthor, the page on chapter 01 (the other chapters declare their own
// getAuthor), for the others every page. A directive that names the
// declaration fails too, which is not this test's concern.
func TestCodeSpansOfTheGuideRenamed(t *testing.T) {
	docs := os.DirFS(filepath.Join(repoRoot, "docs"))
	slugs, err := loadOrder(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file, from, to, span, want string
		pages                      []string // slugs, or all that name span
	}{
		{"chapters/01-tool-errors/main.go", "getAuthor", "fetchAuthor", "getAuthor", "names nothing that chapters/01-tool-errors declares", []string{"tool-errors"}},
		{"mcp/errors.go", "func ResourceNotFound(", "func NotFound(", "mcp.ResourceNotFound", "package mcp (mcp) declares no ResourceNotFound", nil},
		{"mcp/server.go", "\tObserve func", "\tWatch func", "Options.Observe", "has no field or method Observe; write the name it has now (go doc ./mcp Options lists them)", nil},
	} {
		t.Run(tt.span, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(repoRoot, tt.file))
			if err != nil || !bytes.Contains(b, []byte(tt.from)) {
				t.Fatalf("%s has no %q (%v)", tt.file, tt.from, err)
			}
			root := overlay{os.DirFS(repoRoot), fstest.MapFS{tt.file: {Data: bytes.ReplaceAll(b, []byte(tt.from), []byte(tt.to))}}}
			pages := 0
			for _, slug := range slugs {
				s, err := loadSource(docs, slug, SourceLanguage)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(s.body, []byte("`"+tt.span+"`")) || (tt.pages != nil && !slices.Contains(tt.pages, slug)) {
					continue
				}
				pages++
				c := spanChecks(t, root, s.file, string(s.body), false)[tt.span]
				if !strings.Contains(c.problem, tt.want) {
					t.Errorf("%s: `%s` after renaming %q to %q in %s: %+v, want a problem containing %q", s.file, tt.span, tt.from, tt.to, tt.file, c, tt.want)
				}
			}
			if pages == 0 {
				t.Errorf("no English page names `%s`", tt.span)
			}
		})
	}
}
