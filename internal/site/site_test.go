package site

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// themeDir holds the real theme and interface strings, which the tests
// build with.
const themeDir = "../../docs"

// testRoot returns the fixture repository in testdata/repo.
func testRoot(testing.TB) fs.FS { return os.DirFS(filepath.Join("testdata", "repo")) }

// testPage is one page of a test's docs tree: a slug, a language and the
// Markdown file.
type testPage struct{ slug, lang, src string }

// testDocs returns a docs tree with the real theme and English strings, and
// the given pages, in order.
func testDocs(t testing.TB, pages ...testPage) fstest.MapFS {
	t.Helper()
	docs := fstest.MapFS{}
	for _, name := range []string{"theme/page.html", "theme/style.css", "theme/site.js", "lang/en.json"} {
		b, err := os.ReadFile(filepath.Join(themeDir, name))
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = &fstest.MapFile{Data: b}
	}
	var order []string
	for _, p := range pages {
		if p.lang == SourceLanguage {
			order = append(order, p.slug)
		}
		docs[p.slug+"/"+p.lang+".md"] = &fstest.MapFile{Data: []byte(p.src)}
	}
	docs["pages.txt"] = &fstest.MapFile{Data: []byte(strings.Join(order, "\n") + "\n")}
	return docs
}

// en returns an English page with a title.
func en(slug, body string) testPage {
	return testPage{slug, SourceLanguage, "---\ntitle: " + slug + "\n---\n\n" + body}
}

// buildPages builds a site of the fixture repository and the given pages.
func buildPages(t testing.TB, pages ...testPage) (*Site, error) {
	t.Helper()
	return Build(Config{Root: testRoot(t), Docs: testDocs(t, pages...)})
}

func mustBuild(t *testing.T, pages ...testPage) *Site {
	t.Helper()
	s, err := buildPages(t, pages...)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

func TestIncludes(t *testing.T) {
	tests := []struct {
		directive string
		want      []string // in the page, HTML-escaped as it is rendered
		not       []string
	}{
		{":::go chapters/01-demo/main.go limit", []string{"limit is how many books fit", "const", "3"}, []string{"shelf"}},
		{":::go chapters/01-demo/main.go shelfBottom", []string{"shelfBottom"}, []string{"shelfTop", "Kinds of shelf"}},
		{":::go chapters/01-demo/main.go (shelfBottom)", []string{"Kinds of shelf", "shelfTop", "shelfBottom"}, nil},
		{":::go chapters/01-demo/main.go shelf.add", []string{"add puts a book", "the shelf is full", "append"}, []string{"func main"}},
		{":::go chapters/01-demo/main.go shelf main", []string{"shelf holds books", "func", "main", "// ..."}, []string{"add puts"}},
		{":::go chapters/01-demo/main.go shelf shelf.add", []string{"shelf holds books", "add puts a book"}, []string{"// ..."}},
		{":::go chapters/01-demo/main.go main shelf", []string{"shelf holds books", "main", "// ..."}, nil},
		{":::go chapters/01-demo/main.go region:full", []string{"the shelf is full"}, []string{"append", "// region:", "endregion"}},
		{":::go chapters/01-demo/main.go", []string{"Package main is a demo chapter", "append"}, nil},
		{":::example chapters/01-demo/example_test.go Example_full", []string{"Dune", "the shelf is full", `class="output"`}, []string{"Output:", "// &lt;nil&gt;"}},
		{":::transcript testdata/scripts/01-demo/demo.txtar ok", []string{`id="t01-demo-ok"`, "notifications/initialized", `class="noreply"`, "cmp stdout want/ok.jsonl"}, []string{"run-button", "run-note"}},
		{":::file deploy/shelf.conf nginx", []string{"deploy/shelf.conf", "upstream", "shelves"}, nil},
		{`:::message msgs "msgs: the shelf is full"`, []string{"msgs: the shelf is full"}, nil},
		{`:::message msgs "<n> books, at most <max>"`, []string{"&lt;n&gt; books, at most &lt;max&gt;"}, nil},
	}
	for _, tt := range tests {
		s := mustBuild(t, en("index", tt.directive+"\n"))
		page := string(s.Files["index.html"])
		for _, w := range tt.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the page lacks %q", tt.directive, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(page, n) {
				t.Errorf("%s: the page has %q", tt.directive, n)
			}
		}
	}
}

// errsPage is a reference page for the fixture's error table: one section
// per row, each with its card and its explanation.
const errsPage = `:::errors errs

### Full {#shelf-full}

:::error errs shelf-full

When the shelf is full.

### Lost {#book-lost}

:::error errs book-lost

When the book is lost.

### HTTP {#http-only}

:::error errs http-only

When over HTTP.
`

func TestErrorTable(t *testing.T) {
	s := mustBuild(t, en("index", ""), en(referencePage, errsPage), en("other", ":::error errs shelf-full\n"))
	page := string(s.Files[referencePage+".html"])
	for _, w := range []string{
		`<a href="#shelf-full">Full</a>`, `<code title="CodeFull">-32001</code>`,
		`the shelf <var>&lt;shelf&gt;</var> is full`, `{&#34;shelf&#34;:<var>&lt;shelf&gt;</var>}`,
		`by its code`, `none: a tool result`, `<code>403</code>`, "—", `<code>ERROR</code>`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the reference page lacks %q", w)
		}
	}
	if strings.Contains(page, `href="errors.html#`) {
		t.Errorf("a card on the reference page links to it")
	}
	if other := string(s.Files["other.html"]); !strings.Contains(other, `href="errors.html#shelf-full"`) {
		t.Errorf("a card on another page does not link to its row:\n%s", other)
	}
}

func TestErrorTableFails(t *testing.T) {
	without := func(section string) string {
		i := strings.Index(errsPage, section)
		j := strings.Index(errsPage[i+1:], "###")
		if j < 0 {
			return errsPage[:i]
		}
		return errsPage[:i] + errsPage[i+1+j:]
	}
	for _, tt := range []struct{ name, page, want string }{
		{"row without section", without("### Lost"), "row book-lost is not explained"},
		{"row without explanation", strings.Replace(errsPage, "When the book is lost.\n", "", 1), "row book-lost has no explanation"},
		{"card not under its heading", strings.Replace(errsPage, "### Lost {#book-lost}", "### Lost {#lost}", 1), "is not right under a heading {#book-lost}"},
		{"section for no row", errsPage + "\n### Gone {#gone}\n\n:::error errs gone\n\nNever.\n", `has no row "gone"`},
		{"row twice", errsPage + "\n### Again {#again}\n\n:::error errs shelf-full\n\nTwice.\n", "row shelf-full has two sections"},
		{"no table", ":::errors msgs\n", "declares no errorTable"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildPages(t, en(referencePage, tt.page))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{"UnknownTool": "unknown-tool", "HTTPMethod": "http-method", "NoURI": "no-uri", "JSONRPCVersion": "jsonrpc-version", "HeaderBase64": "header-base64", "BadID": "bad-id"} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunButton checks that a chapter transcript gets a Run button when
// the chapter's module is given, and that the module's script files hand
// the page the module, compressed, part by part, in order.
func TestRunButton(t *testing.T) {
	docs := testDocs(t, en("index", ":::transcript testdata/scripts/01-demo/demo.txtar ok\n"))
	if page := string(mustBuild(t, en("index", ":::transcript testdata/scripts/01-demo/demo.txtar ok\n")).Files["index.html"]); strings.Contains(page, "run-button") {
		t.Errorf("a site without modules has a Run button")
	}
	wasm := make([]byte, 400<<10) // random, so that even compressed it needs several parts
	rand.NewChaCha8([32]byte{}).Read(wasm)
	s, err := Build(Config{Root: testRoot(t), Docs: docs, Browser: &Browser{
		Modules:  map[string][]byte{"chapters/01-demo": wasm},
		WasmExec: []byte("// the toolchain's wasm_exec.js"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	page := string(s.Files["index.html"])
	m := regexp.MustCompile(`<div class="run" data-module="01-demo" data-parts="(\d+)" data-size="(\d+)"><button type="button" class="run-button">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no Run button for the demo chapter's module:\n%s", page)
	}
	if !strings.Contains(page, `data-request="{&#34;jsonrpc&#34;:&#34;2.0&#34;`) {
		t.Errorf("the exchanges do not carry their raw requests")
	}
	parts, _ := strconv.Atoi(m[1])
	if parts < 2 {
		t.Errorf("the module comes in %d parts, want several", parts)
	}
	var enc strings.Builder
	for i := range parts {
		js := string(s.Files[fmt.Sprintf("assets/run/01-demo.%d.js", i)])
		part := regexp.MustCompile(`^guideModulePart\("01-demo", ` + strconv.Itoa(i) + `, "([A-Za-z0-9+/=]*)"\);\n$`).FindStringSubmatch(js)
		if part == nil {
			t.Fatalf("part %d is %.80q", i, js)
		}
		enc.WriteString(part[1])
	}
	z, err := base64.StdEncoding.DecodeString(enc.String())
	if err != nil {
		t.Fatal(err)
	}
	if size, _ := strconv.Atoi(m[2]); size != len(z) {
		t.Errorf("data-size=%d, the module is %d bytes", size, len(z))
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("the parts hold %d bytes (%v), want the %d of the module", len(got), err, len(wasm))
	}
	if string(s.Files["assets/run/wasm_exec.js"]) != "// the toolchain's wasm_exec.js" {
		t.Errorf("wasm_exec.js is not the one given")
	}
	tr := s.Transcripts["testdata/scripts/01-demo/demo.txtar#ok"]
	if tr == nil || tr.Chapter != "chapters/01-demo" || len(tr.Requests) != 3 || len(tr.Replies) != 2 {
		t.Errorf("transcript = %+v", tr)
	}
}

// TestBuildFails checks that each kind of mistake fails the build, saying
// where and what.
func TestBuildFails(t *testing.T) {
	tests := []struct {
		name  string
		pages []testPage
		want  string
	}{
		{"unknown directive", []testPage{en("index", ":::paste something\n")}, `unknown directive "paste"`},
		{"missing file", []testPage{en("index", ":::go chapters/nope.go x\n")}, "chapters/nope.go"},
		{"missing included file", []testPage{en("index", ":::file deploy/nope.conf nginx\n")}, "deploy/nope.conf"},
		{"file without language", []testPage{en("index", ":::file deploy/shelf.conf\n")}, "want :::file FILE LANGUAGE"},
		{"missing declaration", []testPage{en("index", ":::go chapters/01-demo/main.go remove\n")}, "no declaration named remove"},
		{"missing region", []testPage{en("index", ":::go chapters/01-demo/main.go region:empty\n")}, "no region empty"},
		{"missing example", []testPage{en("index", ":::example chapters/01-demo/example_test.go Example_gone\n")}, "no example function Example_gone"},
		{"unchecked example", []testPage{en("index", ":::example chapters/01-demo/example_test.go Example_unchecked\n")}, "has no // Output: comment"},
		{"missing case", []testPage{en("index", ":::transcript testdata/scripts/01-demo/demo.txtar gone\n")}, "no case gone"},
		{"no pinned replies", []testPage{en("index", ":::transcript testdata/scripts/01-demo/demo.txtar nowant\n")}, "pins no replies"},
		{"no cmp", []testPage{en("index", ":::transcript testdata/scripts/01-demo/demo.txtar unchecked\n")}, `no script line "cmp stdout want/unchecked.jsonl"`},
		{"not an archive", []testPage{en("index", ":::transcript chapters/01-demo/main.go ok\n")}, "not a testscript archive"},
		{"message not produced", []testPage{en("index", `:::message msgs "msgs: the shelf is empty"`+"\n")}, `no longer produces "msgs: the shelf is empty"`},
		{"unclosed emphasis", []testPage{en("index", "반환값이 **`*mcp.Error`**를 돌려줍니다.\n")}, "shows its emphasis marks"},
		{"heading without id", []testPage{en("index", "## Hello\n")}, `heading "Hello" has no id`},
		{"level-1 heading", []testPage{en("index", "# Hello {#hello}\n")}, "not a level-1 heading"},
		{"broken link", []testPage{en("index", "[x](nowhere.html)\n")}, `no such file nowhere.html`},
		{"broken anchor", []testPage{en("index", "## A {#a}\n"), en("other", "[x](index.html#b)\n")}, "index.html has no anchor #b"},
		{"duplicate id", []testPage{en("index", "## A {#a}\n\n## B {#a}\n")}, `two elements have the id "a"`},
		{"no title", []testPage{{"index", SourceLanguage, "---\nsummary: x\n---\n"}}, "front matter has no title"},
		{"no front matter", []testPage{{"index", SourceLanguage, "hello\n"}}, "no front matter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildPages(t, tt.pages...)
			if err == nil {
				t.Fatalf("Build succeeded, want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build error:\n%v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

// translated returns a translation of page into lang whose record is
// "pending": stamp it to say which English sections it follows.
func translated(slug, lang, body string) testPage {
	return testPage{slug, lang, "---\ntitle: " + slug + " (" + lang + ")\nsource: pending\n---\n\n" + body}
}

// stamp records in docs that the translation of slug into lang follows the
// English sections ids (every section if none) as they are now.
func stamp(t *testing.T, docs fstest.MapFS, slug, lang string, ids ...string) {
	t.Helper()
	b, err := Stamp(docs, slug, lang, ids...)
	if err != nil {
		t.Fatal(err)
	}
	docs[slug+"/"+lang+".md"] = &fstest.MapFile{Data: b}
}

func TestTranslations(t *testing.T) {
	const (
		enBody = "Opening.\n\n## Intro {#intro}\n\n:::go chapters/01-demo/main.go limit\n\n[next](other.html#end) and `limit`.\n\n## More {#more}\n\nMore text.\n"
		frBody = "Ouverture.\n\n## Introduction {#intro}\n\n:::go chapters/01-demo/main.go limit\n\n`limit` et la [suite](other.html#end).\n\n## Plus {#more}\n\nPlus de texte.\n"
	)
	docs := testDocs(t, en("index", enBody), en("other", "## End {#end}\n"), translated("index", "fr", frBody))
	docs["lang/fr.json"] = &fstest.MapFile{Data: docs["lang/en.json"].Data}
	build := func() *Site {
		t.Helper()
		s, err := Build(Config{Root: testRoot(t), Docs: docs})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	// A pending record does not build: a translation must say what it
	// follows.
	if _, err := Build(Config{Root: testRoot(t), Docs: docs}); err == nil || !strings.Contains(err.Error(), "is not a record of sections") {
		t.Errorf("Build error %v, want one about the pending record", err)
	}

	// Stamped whole, it is current: no banner, no note; its link to an
	// untranslated page goes to the English one.
	stamp(t, docs, "index", "fr")
	if rec := string(docs["index/fr.md"].Data); !strings.Contains(rec, "source:\n  (top): ") || !strings.Contains(rec, "\n  more: ") || !strings.HasSuffix(rec, frBody) {
		t.Errorf("stamped page:\n%s", rec)
	}
	fr := string(build().Files["fr/index.html"])
	for _, want := range []string{`<html lang="fr">`, `href="../other.html#end"`, `href="../index.html" hreflang="en"`} {
		if !strings.Contains(fr, want) {
			t.Errorf("fr/index.html lacks %q", want)
		}
	}
	if strings.Contains(fr, `class="banner"`) || strings.Contains(fr, `class="section-behind"`) {
		t.Error("a current translation says it is behind")
	}
	if list, err := Translations(docs); err != nil || len(list) != 2 || list[0].State != Current || list[1].State != Missing {
		t.Errorf("Translations = %v, %v; want index current, other missing", list, err)
	}

	// An edit to one English section puts that section behind, and only it.
	docs["index/en.md"].Data = bytes.Replace(docs["index/en.md"].Data, []byte("More text."), []byte("More text, edited."), 1)
	list, err := Translations(docs)
	if err != nil || list[0].State != Behind || fmt.Sprint(list[0].Behind) != "[more]" || !strings.HasSuffix(list[0].String(), "behind: more") {
		t.Errorf("Translations = %v, %v; want index behind in section more", list, err)
	}
	fr = string(build().Files["fr/index.html"])
	banner := fr[strings.Index(fr, `class="banner"`):]
	banner = banner[:strings.Index(banner, "</div>")]
	if !strings.Contains(banner, `<a href="#more">Plus</a>`) || strings.Contains(banner, "#intro") {
		t.Errorf("the banner does not name exactly the section behind:\n%s", banner)
	}
	note := `<p class="section-behind" role="note">`
	if strings.Count(fr, note) != 1 || !regexp.MustCompile(`id="more".*</h2>\n?`+regexp.QuoteMeta(note)+`[^<]*<a href="../index.html#more" hreflang="en" lang="en">More</a>`).MatchString(fr) {
		t.Errorf("no note under the heading of the section behind, linking to its English text:\n%s", fr)
	}

	// Stamping that section brings the page current again; an edit to the
	// top (here the title) names the top.
	stamp(t, docs, "index", "fr", "more")
	if list, _ := Translations(docs); list[0].State != Current {
		t.Errorf("after stamping more: %v", list[0])
	}
	docs["index/en.md"].Data = bytes.Replace(docs["index/en.md"].Data, []byte("title: index"), []byte("title: Index"), 1)
	if list, _ := Translations(docs); fmt.Sprint(list[0].Behind) != "[(top)]" {
		t.Errorf("after a title edit: %v, want (top) behind", list[0])
	}
	if _, err := Stamp(docs, "index", "fr", "nowhere"); err == nil || !strings.Contains(err.Error(), "no section nowhere") {
		t.Errorf("Stamp of an unknown section: %v", err)
	}
	stamp(t, docs, "index", "fr")

	// Translations must keep the ids, the directives, and in a current
	// section its code and links.
	for _, tt := range []struct{ from, to, want string }{
		{"{#intro}", "{#introduction}", "heading ids [introduction more] differ"},
		{"main.go limit", "main.go shelf", "directives"},
		{"`limit` et", "`limite` et", "section intro: code spans"},
		{"(other.html#end)", "(index.html#more)", "section intro: links"},
	} {
		good := docs["index/fr.md"].Data
		docs["index/fr.md"] = &fstest.MapFile{Data: bytes.Replace(good, []byte(tt.from), []byte(tt.to), 1)}
		if _, err := Build(Config{Root: testRoot(t), Docs: docs}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Build error %v, want %q", err, tt.want)
		}
		docs["index/fr.md"] = &fstest.MapFile{Data: good}
	}
	// ...but a section behind may differ in code and links until it is
	// translated again.
	docs["index/en.md"].Data = bytes.Replace(docs["index/en.md"].Data, []byte("More text, edited."), []byte("More text, with `code` and [a link](other.html)."), 1)
	build()
	docs["index/fr.md"] = &fstest.MapFile{Data: []byte("---\ntitle: x\n---\n")}
	if _, err := Build(Config{Root: testRoot(t), Docs: docs}); err == nil || !strings.Contains(err.Error(), "must record the English version of each section") {
		t.Errorf("Build error %v, want one about the missing record", err)
	}
}

func TestSearchIndex(t *testing.T) {
	s := mustBuild(t, en("index", "Intro text.\n\n## Wire {#wire}\n\nThe `isError` flag.\n\n:::go chapters/01-demo/main.go limit\n"))
	js := string(s.Files["assets/search-en.js"])
	for _, want := range []string{"window.guideSearchIndex = [", `"u":"index.html#wire"`, `"h":"Wire"`, "isError", "limit is how many books fit", "Intro text."} {
		if !strings.Contains(js, want) {
			t.Errorf("the search index lacks %q:\n%s", want, js)
		}
	}
}

func TestPretty(t *testing.T) {
	if got, want := pretty(`{"id":123456789012345678901234567890,"a":[1]}`), "{\n  \"id\": 123456789012345678901234567890,\n  \"a\": [\n    1\n  ]\n}"; got != want {
		t.Errorf("pretty = %q, want %q", got, want)
	}
	if got := pretty(`{"broken`); got != `{"broken` {
		t.Errorf("pretty of a line that is not JSON = %q, want it unchanged", got)
	}
}

// TestLineBreaks: a line break in the source between two Chinese or
// Japanese characters joins them; between Korean words, or Latin ones, it
// is a space.
func TestLineBreaks(t *testing.T) {
	s := mustBuild(t, en("index", "次が 01 章の\nサーバーです。\n\n服务器\n返回错误。见\n[下文](#a)。\n\n서버\n전체입니다.\n\nthe\nserver; see\n[below](#a) and\n`code`.\n\n## A {#a}\n"))
	page := string(s.Files["index.html"])
	for _, want := range []string{"01 章のサーバーです。", "服务器返回错误。见<a", "서버\n전체입니다.", "the\nserver; see\n<a", "and\n<code>"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}

// TestSplitSections: a page's sections start at its level-2 headings, not
// at a "## " line inside a code block nor at a level-3 heading, and an edit
// changes the version of its own section only.
func TestSplitSections(t *testing.T) {
	body := "Intro.\n\n## One {#one}\n\n```sh\n## not a heading {#x}\n```\n\n### Sub {#sub}\n\nText.\n\n## Two {#two}\n\nEnd.\n"
	ids := func(ss []section) (s []string) {
		for _, x := range ss {
			s = append(s, x.id)
		}
		return s
	}
	a := splitSections("T", "S", []byte(body))
	if got := fmt.Sprint(ids(a)); got != "[(top) one two]" {
		t.Fatalf("sections %s, want [(top) one two]", got)
	}
	b := splitSections("T", "S", []byte(strings.Replace(body, "Text.", "Text, edited.", 1)))
	if a[0] != b[0] || a[1] == b[1] || a[2] != b[2] {
		t.Errorf("an edit in section one changed %v into %v", a, b)
	}
	if c := splitSections("T", "S2", []byte(body)); c[0] == a[0] || c[1] != a[1] {
		t.Errorf("a summary edit changed %v into %v", a, c)
	}
}
