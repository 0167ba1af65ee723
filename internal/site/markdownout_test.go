package site

import (
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// TestMarkdownIncludes checks that each directive's Markdown shows what its
// HTML shows, written as Markdown, and not the directive.
func TestMarkdownIncludes(t *testing.T) {
	tests := []struct {
		directive string
		want      []string
	}{
		{":::go chapters/01-demo/main.go limit", []string{"`chapters/01-demo/main.go`: `limit`\n\n```go\n// limit is how many books fit", "\n```\n"}},
		{":::go chapters/01-demo/main.go shelf main", []string{"// ...", "```go\n// shelf holds books"}},
		{":::example chapters/01-demo/example_test.go Example_full", []string{"`chapters/01-demo/example_test.go`: `Example_full`\n\n```go\n", "Output:\n\n```text\n", "the shelf is full"}},
		{":::transcript testdata/scripts/01-demo/demo.txtar ok", []string{
			`<a id="t01-demo-ok"></a>` + "`testdata/scripts/01-demo/demo.txtar`, checked by `cmp stdout want/ok.jsonl`:",
			"*The legacy handshake: initialize, then notifications/initialized*",
			"**Request**\n\n```json\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"method\": \"ping\"\n}\n```",
			"**Response (pinned)**\n\n```json\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"result\": {}\n}\n```",
			"*No response: this is a notification.*",
		}},
		{":::file deploy/shelf.conf nginx", []string{"`deploy/shelf.conf`\n\n```nginx\n", "upstream"}},
		{`:::message msgs "<n> books, at most <max>"`, []string{"`msgs`, text produced by this package:\n\n```text\n<n> books, at most <max>\n```"}},
	}
	for _, tt := range tests {
		s := mustBuild(t, en("index", "Before.\n\n"+tt.directive+"\n\nAfter.\n"))
		md := string(s.Files["index.md"])
		if !strings.HasPrefix(md, "# index\n\nBefore.\n\n") || !strings.HasSuffix(md, "\n\nAfter.\n") {
			t.Errorf("%s: the page's Markdown does not keep its text around the directive:\n%s", tt.directive, md)
		}
		for _, w := range tt.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: the Markdown lacks %q:\n%s", tt.directive, w, md)
			}
		}
		noDirectives(t, "index.md", md)
	}
}

// TestMarkdownEveryDirective checks that every directive of the table
// has its Markdown, for its example in the repository.
func TestMarkdownEveryDirective(t *testing.T) {
	for _, d := range directives {
		n, err := resolvedInRepo(t, d.example)
		if err != nil {
			t.Errorf("%s: %v", d.example, err)
			continue
		}
		if !strings.Contains(n.md, "```") && !strings.Contains(n.md, "| --- |") && !strings.Contains(n.md, "\n- ") {
			t.Errorf("%s: no fenced block, table or list in its Markdown:\n%s", d.example, n.md)
		}
		noDirectives(t, d.example, n.md)
	}
}

// TestMarkdownErrorTable checks the error table as a Markdown table, and
// a card away from the reference page linking to its row's section.
func TestMarkdownErrorTable(t *testing.T) {
	s := mustBuild(t, en("index", ""), en(referencePage, errsPage), en("other", ":::error errs shelf-full\n"))
	ref := string(s.Files[referencePage+".md"])
	for _, w := range []string{
		"| error | code | message | data | HTTP in a session | HTTP stateless |\n| --- | --- | --- | --- | --- | --- |\n",
		"| [Full](#shelf-full) | `-32001` (`CodeFull`) | `the shelf <shelf> is full` |",
		"### Full {#shelf-full}\n\n`errs`, error `shelf-full`:\n\n- code: `-32001` (`CodeFull`)\n",
		"- log: `ERROR`",
	} {
		if !strings.Contains(ref, w) {
			t.Errorf("the reference page's Markdown lacks %q:\n%s", w, ref)
		}
	}
	if other := string(s.Files["other.md"]); !strings.Contains(other, "`errs`, [error](errors.md#shelf-full) `shelf-full`:") {
		t.Errorf("a card on another page does not link to its row's Markdown:\n%s", other)
	}
	checkMarkdown(t, s, "")
}

// TestMarkdownLinks checks that links to pages lead to their Markdown, in
// a translation to the English page it lacks, and that code, external
// links and anchors of the page itself are left as they are.
func TestMarkdownLinks(t *testing.T) {
	const body = "See [the end](other.html#end), [top](other.html), [here](#here) and [Go](https://go.dev/x.html).\n\n" +
		"`[code](other.html)`\n\n```\n[fenced](other.html)\n```\n\n## Here {#here}\n"
	s := mustBuild(t, en("index", body), en("other", "## End {#end}\n"))
	md := string(s.Files["index.md"])
	for _, w := range []string{"[the end](other.md#end)", "[top](other.md)", "[here](#here)", "[Go](https://go.dev/x.html)", "`[code](other.html)`", "[fenced](other.html)\n"} {
		if !strings.Contains(md, w) {
			t.Errorf("index.md lacks %q:\n%s", w, md)
		}
	}
	checkMarkdown(t, s, "")

	docs := testDocs(t, en("index", trEnIndex), en("other", trEnOther), translated("index", "fr", trFrIndex))
	docs["lang/fr.json"] = docs["lang/en.json"]
	stamp(t, docs, "index", "fr")
	s = buildDocs(t, docs)
	if fr := string(s.Files["fr/index.md"]); !strings.Contains(fr, "[suite](../other.md#end)") || !strings.Contains(fr, "- [other](../other.md)") {
		t.Errorf("fr/index.md does not lead to the English page it lacks:\n%s", fr)
	}
	checkMarkdown(t, s, "")
}

// TestMarkdownBehind checks that a translation's Markdown says, as its
// HTML does, which sections follow an older English text and which are
// shown in English.
func TestMarkdownBehind(t *testing.T) {
	docs := translatedDocs(t)
	edit(t, docs, "index/en.md", "Opening.", "Opening, longer.")
	edit(t, docs, "index/en.md", "More text.", "More text, and [the end](other.html#end).")
	s := buildDocs(t, docs)
	fr := string(s.Files["fr/index.md"])
	for _, w := range []string{
		"# index (fr)\n\n> This section follows an older version of the English text. Read the current one: [index](../index.md)\n\nOuverture.",
		"## More {#more}\n\n> This section is shown in English: its translation is missing or follows an older English text.\n\nMore text, and [the end](other.md#end).",
	} {
		if !strings.Contains(fr, w) {
			t.Errorf("fr/index.md lacks %q:\n%s", w, fr)
		}
	}
	checkMarkdown(t, s, "")
}

// TestMarkdownAlternate checks that every page links its Markdown from its
// head, and that the server gives each file for programs its type.
func TestMarkdownAlternate(t *testing.T) {
	s, err := Build(Config{Root: testRoot(t), Docs: scriptsDocs(t), BaseURL: "https://example.org/guide"})
	if err != nil {
		t.Fatal(err)
	}
	checkMarkdown(t, s, "https://example.org/guide/")
	h := Handler(s)
	for name, want := range map[string]string{
		"/index.md":    "text/markdown; charset=utf-8",
		"/ja/index.md": "text/markdown; charset=utf-8",
		"/llms.txt":    "text/plain; charset=utf-8",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", name, nil))
		if got := rec.Header().Get("Content-Type"); rec.Code != 200 || got != want {
			t.Errorf("GET %s: %d, %s; want 200, %s", name, rec.Code, got, want)
		}
	}
}

// TestMachineReadableGuide checks the guide's own files for programs:
// every page's Markdown in every language, llms.txt, llms-full.txt and
// sitemap.xml, as checkMarkdown and checkSitemap say; the Markdown holds
// the transcripts' pinned replies, pretty-printed, and llms-full.txt every
// English page in reading order, in at most 400 KB.
func TestMachineReadableGuide(t *testing.T) {
	const base = "https://example.org/guide/"
	docs := os.DirFS(filepath.Join(repoRoot, "docs"))
	s, err := Build(Config{Root: os.DirFS(repoRoot), Docs: docs, DocsDir: "docs", BaseURL: base})
	if err != nil {
		t.Fatalf("the guide does not build:\n%v", err)
	}
	checkMarkdown(t, s, base)
	checkSitemap(t, s, base)
	const reply = `"text": "Error executing tool get_author: No book titled 'Nothing' in the catalog."`
	for _, name := range []string{"tool-errors.md", "fr/tool-errors.md", "ko/tool-errors.md", llmsFullFile} {
		md := string(s.Files[name])
		if !strings.Contains(md, `<a id="t01-modern-tool-error"></a>`) || !regexp.MustCompile(`\n {8}`+regexp.QuoteMeta(reply)+`\n`).MatchString(md) {
			t.Errorf("%s lacks the tool-error transcript's pinned reply, pretty-printed", name)
		}
	}
	full := s.Files[llmsFullFile]
	t.Logf("%s: %d bytes; %s: %d bytes", llmsFile, len(s.Files[llmsFile]), llmsFullFile, len(full))
	if len(full) > 400*1024 {
		t.Errorf("%s is %d KB, over its bound of 400 KB: leave out of it the pages an agent needs least (say so in llms.txt), rather than cutting a page short", llmsFullFile, len(full)/1024)
	}
	slugs, err := loadOrder(docs)
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, slug := range slugs {
		src, err := loadSource(docs, slug, SourceLanguage)
		if err != nil {
			t.Fatal(err)
		}
		md := s.Files[slug+".md"]
		i := strings.Index(string(full[at:]), string(md[:strings.IndexByte(string(md), '\n')+1]))
		if i < 0 {
			t.Errorf("%s lacks %s (%q), or has it out of the order of pages.txt", llmsFullFile, slug, src.title)
			continue
		}
		at += i
		if llms := string(s.Files[llmsFile]); !strings.Contains(llms, "- ["+linkText(src.title)+"]("+base+slug+".md)") {
			t.Errorf("%s does not list %s", llmsFile, slug)
		}
	}
}

// TestParseBaseURL checks the base URL's checks.
func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.org/guide/": "https://example.org/guide/",
		"https://example.org/guide":  "https://example.org/guide/",
		"http://127.0.0.1:8080":      "http://127.0.0.1:8080/",
	} {
		if got, err := ParseBaseURL(in); err != nil || got != want {
			t.Errorf("ParseBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                       "not an absolute http or https address",
		"/guide/":                "not an absolute http or https address",
		"example.org/guide":      "not an absolute http or https address",
		"ftp://example.org/":     "not an absolute http or https address",
		"https://":               "names no host",
		"https://example.org/?":  "has a query or fragment",
		"https://example.org/#x": "has a query or fragment",
		"https://exa mple.org/":  "does not parse",
	} {
		_, err := ParseBaseURL(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "https://example.org/guide/") {
			t.Errorf("ParseBaseURL(%q): %v; want an error saying %q and the fix", in, err, want)
		}
	}
	if _, err := Build(Config{Root: testRoot(t), Docs: testDocs(t, en("index", "")), BaseURL: "guide"}); err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Errorf("Build with base URL %q: %v, want its error", "guide", err)
	}
}

// noDirectives fails t if md has a line that starts with ":::".
func noDirectives(t *testing.T, name, md string) {
	t.Helper()
	for l := range strings.Lines(md) {
		if strings.HasPrefix(l, ":::") {
			t.Errorf("%s: a directive was left in the Markdown: %s", name, strings.TrimSpace(l))
		}
	}
}

// anchorTag matches the anchor a transcript's Markdown starts with.
var anchorTag = regexp.MustCompile(`<a id="([^"]+)"></a>`)

// readMarkdown parses md as CommonMark with GitHub's tables and heading
// attributes, and returns the destinations of its links and the anchors
// it has: the ids of its headings and of its <a id> tags.
func readMarkdown(md []byte) (links, ids []string) {
	doc := goldmark.New(goldmark.WithExtensions(extension.Table), goldmark.WithParserOptions(parser.WithAttribute())).
		Parser().Parse(text.NewReader(md))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			links = append(links, string(n.Destination))
		case *ast.Image:
			links = append(links, string(n.Destination))
		case *ast.Heading:
			if id, ok := n.AttributeString("id"); ok {
				ids = append(ids, string(id.([]byte)))
			}
		}
		return ast.WalkContinue, nil
	})
	for _, m := range anchorTag.FindAllSubmatch(md, -1) {
		ids = append(ids, string(m[1]))
	}
	return links, ids
}

// checkMarkdown checks the files of s for programs: each page has its
// Markdown, linked from its head; no Markdown, nor llms.txt or
// llms-full.txt, holds a directive; every link of theirs leads to a file
// of the site (an absolute one under base, which llms.txt links with when
// base is not ""), and every #anchor to a heading or transcript of that
// file; llms.txt has the shape the llms.txt convention gives it.
func checkMarkdown(t *testing.T, s *Site, base string) {
	t.Helper()
	var names []string
	for name := range s.Files {
		switch path.Ext(name) {
		case ".html":
			md := markdownURL(name)
			if s.Files[md] == nil {
				t.Errorf("%s has no Markdown %s", name, md)
			}
			if link := `<link rel="alternate" type="text/markdown" href="` + path.Base(md) + `">`; !strings.Contains(string(s.Files[name]), link) {
				t.Errorf("%s lacks %s", name, link)
			}
		case ".md", ".txt":
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if !slices.Contains(names, llmsFile) || !slices.Contains(names, llmsFullFile) {
		t.Fatalf("the site lacks %s or %s", llmsFile, llmsFullFile)
	}
	anchors := make(map[string][]string)
	linksOf := make(map[string][]string)
	for _, name := range names {
		noDirectives(t, name, string(s.Files[name]))
		linksOf[name], anchors[name] = readMarkdown(s.Files[name])
	}
	for _, name := range names {
		for _, link := range linksOf[name] {
			if base != "" && strings.HasPrefix(link, base) {
				link = strings.TrimPrefix(link, base)
			} else if external(link) {
				continue
			} else if name == llmsFile && base != "" {
				t.Errorf("%s: link %q is not under the base URL %s", name, link, base)
			}
			target, anchor, _ := strings.Cut(link, "#")
			if target == "" && name == llmsFullFile {
				t.Errorf("%s: link %q names no page, and the file holds them all", name, link)
			}
			file := name
			if target != "" {
				file = joinURL(name, target)
			}
			if s.Files[file] == nil {
				t.Errorf("%s: link %q: no such file %s", name, link, file)
				continue
			}
			ids := anchors[file]
			if path.Ext(file) == ".html" {
				ids = nil
				for _, a := range attrValues(s.Files[file], "id") {
					ids = append(ids, a.val)
				}
			}
			if anchor != "" && !slices.Contains(ids, anchor) {
				t.Errorf("%s: link %q: %s has no anchor #%s", name, link, file, anchor)
			}
		}
	}
	llms := string(s.Files[llmsFile])
	shape := regexp.MustCompile(`\A# [^\n]+\n\n> [^\n]+\n\n[^#>\n][^\n]*\n\n## Pages\n\n(- \[[^\n]+\]\([^\s)]+\)(: [^\n]+)?\n)+\n## Optional\n\n(- \[[^\n]+\]\([^\s)]+\)(: [^\n]+)?\n)+\z`)
	if !shape.MatchString(llms) {
		t.Errorf("%s is not an H1, a blockquote, a paragraph, then a list of pages and an Optional list:\n%s", llmsFile, llms)
	}
}
