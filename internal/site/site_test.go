package site

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
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
		{"no table", ":::errors msgs\n", "package msgs has no error table as data"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildPages(t, en(referencePage, tt.page))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestErrorTableData checks that error table data the site cannot show is
// refused with a message that names the file and the row.
func TestErrorTableData(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"not JSON", `{"rows": [`, "bad/errortable.json: unexpected end of JSON input (go generate ./bad writes it again)"},
		{"no rows", `{"rows": []}`, "bad/errortable.json has no rows"},
		{"a row without a name", `{"rows": [{"reply": "error"}]}`, "bad/errortable.json: row 1 has no name"},
		{"an unknown reply", `{"rows": [{"name": "x", "reply": "result"}]}`, `bad/errortable.json: row x: reply "result" is none of`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newResolver(fstest.MapFS{"bad/errortable.json": {Data: []byte(tt.data)}}, nil)
			if _, err := r.errorTable("bad"); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("errorTable: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestErrorTableBehind: a row's section behind in a translation has a
// note under its heading, and its card is still right under the heading.
func TestErrorTableBehind(t *testing.T) {
	page := strings.ReplaceAll(errsPage, "### ", "## ")
	docs := testDocs(t, en("index", ""), en(referencePage, page), translated("index", "fr", ""), translated(referencePage, "fr", strings.ReplaceAll(page, "When", "Quand")))
	docs["lang/fr.json"] = docs["lang/en.json"]
	stamp(t, docs, "index", "fr")
	stamp(t, docs, referencePage, "fr")
	edit(t, docs, referencePage+"/en.md", "When the shelf is full.", "When the shelf is full, as it is.")
	fr := string(buildDocs(t, docs).Files["fr/"+referencePage+".html"])
	if !strings.Contains(fr, `class="section-behind"`) || !strings.Contains(fr, "Quand the shelf is full.") {
		t.Errorf("the section behind is not shown translated with its note:\n%s", fr)
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
		{"no cmp", []testPage{en("index", ":::transcript testdata/scripts/01-demo/demo.txtar unchecked\n")}, `no script line "pin stdout want/unchecked.jsonl"`},
		{"not an archive", []testPage{en("index", ":::transcript chapters/01-demo/main.go ok\n")}, "not a testscript archive"},
		{"message not produced", []testPage{en("index", `:::message msgs "msgs: the shelf is empty"`+"\n")}, `no longer produces "msgs: the shelf is empty"`},
		{"unclosed emphasis", []testPage{en("index", "반환값이 **`*mcp.Error`**를 돌려줍니다.\n")}, "shows its emphasis marks"},
		{"heading without id", []testPage{en("index", "## Hello\n")}, `heading "Hello" has no id`},
		{"level-1 heading", []testPage{en("index", "# Hello {#hello}\n")}, `level-1 heading "Hello": the title comes from the front matter`},
		{"broken link", []testPage{en("index", "[x](nowhere.html)\n")}, `link "nowhere.html": no such file nowhere.html`},
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

// TestBuildErrorText checks the whole text of the errors a contributor
// meets most: where (file and section), what, and the fix, each once.
func TestBuildErrorText(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"Intro.\n\n## Wire {#wire}\n\n:::transcript testdata/scripts/01-demo/demo.txtar empty-title\n",
			`docs/index/en.md: section wire: :::transcript testdata/scripts/01-demo/demo.txtar empty-title: the archive has no case empty-title (add req/empty-title.jsonl to testdata/scripts/01-demo/demo.txtar, with the script lines "exchange req/empty-title.jsonl <chapter>" and "pin stdout want/empty-title.jsonl", then run go generate ./... to pin its replies; or fix the name)`},
		{"## Wire {#wire}\n\n### On the wire\n",
			`docs/index/en.md: section wire: heading "On the wire" has no id: end its line with {#on-the-wire}, the id every language gives it and links use`},
		{"## Wire {#wire}\n\nSee [below](#gone).\n",
			`docs/index/en.md: section wire: link "#gone": index.html has no anchor #gone (no heading there ends in {#gone}, and no transcript has that id)`},
		{":::paste x\n", `docs/index/en.md: section (top): :::paste x: unknown directive "paste": the directives are go, example, transcript, message, error, errors, sdks, file, callpath, also (see CONTRIBUTING.md, Directive reference)`},
	} {
		_, err := Build(Config{Root: testRoot(t), Docs: testDocs(t, en("index", tt.body)), DocsDir: "docs"})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Build error\n%v\nwant\n%s", err, tt.want)
		}
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

// edit replaces from by to in a file of docs, once, and fails t if the
// file lacks from.
func edit(t *testing.T, docs fstest.MapFS, name, from, to string) {
	t.Helper()
	b := docs[name].Data
	if !bytes.Contains(b, []byte(from)) {
		t.Fatalf("%s lacks %q", name, from)
	}
	docs[name] = &fstest.MapFile{Data: bytes.Replace(b, []byte(from), []byte(to), 1)}
}

const (
	trEnIndex = "Opening.\n\n## Intro {#intro}\n\n:::go chapters/01-demo/main.go limit\n\n[next](other.html#end) and `limit`.\n\n## More {#more}\n\nMore text.\n\n### Detail {#detail}\n\nDetails.\n"
	trFrIndex = "Ouverture.\n\n## Introduction {#intro}\n\n:::go chapters/01-demo/main.go limit\n\n`limit` et la [suite](other.html#end).\n\n## Plus {#more}\n\nPlus de texte.\n\n### Détail {#detail}\n\nDétails.\n"
	trEnOther = "## End {#end}\n\nBack to [more](index.html#more).\n"
	trFrOther = "## Fin {#end}\n\nRetour à [plus](index.html#more).\n"
)

// translatedDocs returns a docs tree of two pages, index and other, in
// English and French, the French stamped whole.
func translatedDocs(t *testing.T) fstest.MapFS {
	t.Helper()
	docs := testDocs(t, en("index", trEnIndex), en("other", trEnOther), translated("index", "fr", trFrIndex), translated("other", "fr", trFrOther))
	docs["lang/fr.json"] = &fstest.MapFile{Data: docs["lang/en.json"].Data}
	stamp(t, docs, "index", "fr")
	stamp(t, docs, "other", "fr")
	return docs
}

// buildDocs builds docs, naming its files as under docs/, or fails t.
func buildDocs(t *testing.T, docs fstest.MapFS) *Site {
	t.Helper()
	s, err := Build(Config{Root: testRoot(t), Docs: docs, DocsDir: "docs"})
	if err != nil {
		t.Fatalf("Build:\n%v", err)
	}
	return s
}

// behindOf returns "id:why" for each section behind of the translation
// of page into lang.
func behindOf(t *testing.T, docs fs.FS, page, lang string) string {
	t.Helper()
	list, err := Translations(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range list {
		if tr.Page == page && tr.Lang == lang {
			var s []string
			for _, b := range tr.Behind {
				s = append(s, b.ID+":"+b.Why.String())
			}
			return strings.Join(s, " ")
		}
	}
	t.Fatalf("no translation of %s into %s", page, lang)
	return ""
}

// bannerOf returns the behind banner of a page, or "".
func bannerOf(page string) string {
	i := strings.Index(page, `class="banner"`)
	if i < 0 {
		return ""
	}
	return page[i : i+strings.Index(page[i:], "</div>")]
}

func TestTranslations(t *testing.T) {
	docs := testDocs(t, en("index", trEnIndex), en("other", "## End {#end}\n"), translated("index", "fr", trFrIndex))
	docs["lang/fr.json"] = &fstest.MapFile{Data: docs["lang/en.json"].Data}

	// A pending record does not build: a translation must say what it
	// follows.
	if _, err := Build(Config{Root: testRoot(t), Docs: docs}); err == nil || !strings.Contains(err.Error(), "index/fr.md: source: \"pending\" is not a record of sections") {
		t.Errorf("Build error %v, want one about the pending record", err)
	}

	// Stamped whole, it is current: no banner, no note; its link to an
	// untranslated page goes to the English one. The record holds the
	// English version of each section and the version of its own text.
	stamp(t, docs, "index", "fr")
	if rec := string(docs["index/fr.md"].Data); !regexp.MustCompile(`source:\n  \(top\): [0-9a-f]{12} [0-9a-f]{12}\n  intro: `).MatchString(rec) || !strings.Contains(rec, "\n  more: ") || !strings.HasSuffix(rec, trFrIndex) {
		t.Errorf("stamped page:\n%s", rec)
	}
	fr := string(buildDocs(t, docs).Files["fr/index.html"])
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

	// An edit to one English section's prose puts that section behind,
	// and only it; the translation still shows its own text there, with a
	// note linking to the English.
	edit(t, docs, "index/en.md", "More text.", "More text, edited.")
	if got := behindOf(t, docs, "index", "fr"); got != "more:changed" {
		t.Errorf("behind: %s, want more:changed", got)
	}
	fr = string(buildDocs(t, docs).Files["fr/index.html"])
	if banner := bannerOf(fr); !strings.Contains(banner, `<a href="#more">Plus</a></li>`) || strings.Contains(banner, "#intro") {
		t.Errorf("the banner does not name exactly the section behind:\n%s", banner)
	}
	note := `<p class="section-behind" role="note">`
	if strings.Count(fr, `class="section-behind"`) != 1 || !regexp.MustCompile(`id="more".*</h2>\n?`+regexp.QuoteMeta(note)+`[^<]*<a href="../index.html#more" hreflang="en" lang="en">More</a>`).MatchString(fr) || !strings.Contains(fr, "Plus de texte.") {
		t.Errorf("no note under the heading of the section behind, linking to its English text:\n%s", fr)
	}

	// Stamping that section while its translation is as it was is refused,
	// unless forced; once translated again, it stamps.
	_, err := StampPage(docs, "index", "fr", false, "more")
	if err == nil || !strings.Contains(err.Error(), "index/fr.md: nothing stamped:\n\tsection more: the English changed (") || !strings.Contains(err.Error(), "stamp -force") {
		t.Errorf("StampPage of an untranslated change: %v", err)
	}
	forced, err := StampPage(docs, "index", "fr", true, "more")
	if err != nil || len(forced.Sections) != 1 || !forced.Sections[0].Forced || !strings.HasSuffix(forced.Sections[0].String(), "(forced: its text did not change)") {
		t.Errorf("StampPage -force: %+v, %v", forced, err)
	}
	edit(t, docs, "index/fr.md", "Plus de texte.", "Plus de texte, revu.")
	done, err := StampPage(docs, "index", "fr", false, "more")
	if err != nil || len(done.Sections) != 1 || !regexp.MustCompile(`^more: [0-9a-f]{12} → [0-9a-f]{12}$`).MatchString(done.Sections[0].String()) {
		t.Fatalf("StampPage after translating: %+v, %v", done, err)
	}
	docs["index/fr.md"] = &fstest.MapFile{Data: done.Data}
	if got := behindOf(t, docs, "index", "fr"); got != "" {
		t.Errorf("after stamping more: %s behind", got)
	}

	// An edit to the top (here the title) names the top, with the page's
	// title in the banner and a note at the start.
	edit(t, docs, "index/en.md", "title: index", "title: Index")
	if got := behindOf(t, docs, "index", "fr"); got != "(top):changed" {
		t.Errorf("after a title edit: %s, want (top) behind", got)
	}
	fr = string(buildDocs(t, docs).Files["fr/index.html"])
	if !strings.Contains(bannerOf(fr), `<a href="#content">index (fr)</a>`) || !strings.Contains(fr, note+"This section follows an older version of the English text. Read the current one: <a href=\"../index.html\" hreflang=\"en\" lang=\"en\">Index</a></p>\n<p>Ouverture.") {
		t.Errorf("the top behind is not named, or has no note:\n%s", fr)
	}
	if _, err := Stamp(docs, "index", "fr", "nowhere"); err == nil || !strings.Contains(err.Error(), "index/en.md has no section nowhere (its sections: (top) intro more)") {
		t.Errorf("Stamp of an unknown section: %v", err)
	}
	if _, err := StampPage(docs, "index", "fr", true, "(top)"); err != nil {
		t.Fatal(err)
	}
	stamp(t, docs, "index", "fr", "intro") // current already: stamps nothing new

	// A missing record does not build.
	good := docs["index/fr.md"].Data
	docs["index/fr.md"] = &fstest.MapFile{Data: []byte("---\ntitle: x\n---\n")}
	if _, err := Build(Config{Root: testRoot(t), Docs: docs}); err == nil || !strings.Contains(err.Error(), "must record the English version of each section") {
		t.Errorf("Build error %v, want one about the missing record", err)
	}
	docs["index/fr.md"] = &fstest.MapFile{Data: good}
}

// TestTranslationLags checks that an English change of any kind leaves
// the build green: it puts sections behind, in every language, and the
// page shows the English section where the translation's own cannot show
// what the English shows now.
func TestTranslationLags(t *testing.T) {
	base := translatedDocs(t)
	docs := func() fstest.MapFS {
		d := fstest.MapFS{}
		for k, v := range base {
			d[k] = &fstest.MapFile{Data: v.Data}
		}
		d["lang/de.json"] = d["lang/en.json"]
		d["index/de.md"] = &fstest.MapFile{Data: bytes.Replace(d["index/fr.md"].Data, []byte("(fr)"), []byte("(de)"), 1)}
		return d
	}
	inEnglish := `<div class="in-english" lang="en">`

	t.Run("directive added", func(t *testing.T) {
		d := docs()
		edit(t, d, "index/en.md", "[next](other.html#end)", ":::transcript testdata/scripts/01-demo/demo.txtar ok\n\n[next](other.html#end)")
		s := buildDocs(t, d)
		for _, lang := range []string{"de", "fr"} {
			if got := behindOf(t, d, "index", lang); got != "intro:changed" {
				t.Errorf("%s: behind %s, want intro:changed", lang, got)
			}
			page := string(s.Files[lang+"/index.html"])
			i := strings.Index(page, inEnglish)
			if i < 0 {
				t.Fatalf("%s: no section shown in English:\n%s", lang, page)
			}
			section := page[i : i+strings.Index(page[i:], "</div>\n<h2")]
			for _, want := range []string{`<h2 id="intro">Intro<a`, `<p class="section-behind" role="note" lang="` + lang + `">This section is shown in English: its translation is missing or follows an older English text.</p>`, `id="t01-demo-ok"`, "notifications/initialized", "limit is how many books fit"} {
				if !strings.Contains(section, want) {
					t.Errorf("%s: the English section lacks %q:\n%s", lang, want, section)
				}
			}
			if strings.Contains(page, "Introduction") {
				t.Errorf("%s: the section's old translation is shown too", lang)
			}
			if banner := bannerOf(page); !strings.Contains(banner, `<a href="#intro" lang="en">Intro</a> <span class="in-english-mark">(shown in English)</span>`) {
				t.Errorf("%s: the banner does not say the section is shown in English:\n%s", lang, banner)
			}
			if !strings.Contains(page, "Plus de texte.") {
				t.Errorf("%s: a current section is not shown translated", lang)
			}
		}
	})

	t.Run("section added", func(t *testing.T) {
		d := docs()
		edit(t, d, "index/en.md", "## More {#more}", "## New {#new}\n\nA new section.\n\n## More {#more}")
		fr := string(buildDocs(t, d).Files["fr/index.html"])
		if got := behindOf(t, d, "index", "fr"); got != "new:new" {
			t.Errorf("behind %s, want new:new", got)
		}
		intro, added, more := strings.Index(fr, `id="intro"`), strings.Index(fr, inEnglish+"\n<h2 id=\"new\">New"), strings.Index(fr, `id="more"`)
		if !(intro < added && added < more) || !strings.Contains(fr, "A new section.") {
			t.Errorf("the new section is not shown in English between intro and more:\n%s", fr)
		}
	})

	t.Run("sections reordered", func(t *testing.T) {
		d := docs()
		en := string(d["index/en.md"].Data)
		i, j := strings.Index(en, "## Intro"), strings.Index(en, "## More")
		d["index/en.md"] = &fstest.MapFile{Data: []byte(en[:i] + en[j:] + "\n" + en[i:j])}
		fr := string(buildDocs(t, d).Files["fr/index.html"])
		got := behindOf(t, d, "index", "fr")
		if got != "more:moved" && got != "intro:moved" {
			t.Errorf("behind %q, want one of the two sections moved", got)
		}
		if strings.Index(fr, `id="more"`) > strings.Index(fr, `id="intro"`) || strings.Contains(fr, inEnglish) {
			t.Errorf("the translation is not shown in the English order, in its own words:\n%s", fr)
		}
		// Moving the section in the translation too brings it current,
		// with no stamp: its text did not change.
		tr := string(d["index/fr.md"].Data)
		i, j = strings.Index(tr, "## Introduction"), strings.Index(tr, "## Plus")
		d["index/fr.md"] = &fstest.MapFile{Data: []byte(tr[:i] + tr[j:] + "\n" + tr[i:j])}
		if got := behindOf(t, d, "index", "fr"); got != "" {
			t.Errorf("after moving it in French too: %s behind", got)
		}
	})

	t.Run("section removed", func(t *testing.T) {
		d := docs()
		en := string(d["index/en.md"].Data)
		d["index/en.md"] = &fstest.MapFile{Data: []byte(en[:strings.Index(en, "## More")])}
		edit(t, d, "other/en.md", "index.html#more", "index.html#intro")
		s := buildDocs(t, d)
		fr := string(s.Files["fr/index.html"])
		if strings.Contains(fr, "Plus de texte") || strings.Contains(fr, `id="more"`) {
			t.Errorf("a section English no longer has is shown:\n%s", fr)
		}
		list, _ := Translations(d)
		if list[0].Page != "index" || fmt.Sprint(list[0].Extra) != "[more]" || list[0].State != Current {
			t.Errorf("Translations()[0] = %+v, want index current, with more extra", list[0])
		}
		// The other page's link changed in English: its French section,
		// which links to the section removed, is shown in English.
		if got := behindOf(t, d, "other", "fr"); got != "end:changed" {
			t.Errorf("other: behind %s", got)
		}
		if other := string(s.Files["fr/other.html"]); !strings.Contains(other, `href="index.html#intro"`) || strings.Contains(other, "Retour") {
			t.Errorf("fr/other.html does not show the English section with its new link:\n%s", other)
		}
	})

	t.Run("heading id renamed", func(t *testing.T) {
		d := docs()
		edit(t, d, "index/en.md", "{#more}", "{#further}")
		edit(t, d, "other/en.md", "index.html#more", "index.html#further")
		s := buildDocs(t, d)
		if got := behindOf(t, d, "index", "fr"); got != "further:new" {
			t.Errorf("behind %s, want further:new", got)
		}
		if fr := string(s.Files["fr/index.html"]); strings.Count(fr, `id="detail"`) != 1 || !strings.Contains(fr, `id="further"`) {
			t.Errorf("the renamed section is not shown once, in English")
		}
	})
}

// TestTranslationErrors checks the errors of a translation whose sections
// are current: each names the file, the section, what differs and the
// fix, once.
func TestTranslationErrors(t *testing.T) {
	for _, tt := range []struct{ from, to, want string }{
		{"main.go limit", "main.go shelf", `docs/index/fr.md: section intro: directives differ from the English section's: lacks ":::go chapters/01-demo/main.go limit", has ":::go chapters/01-demo/main.go shelf" besides (a current section includes what its English section includes, in the same order: copy the directive lines from index/en.md)`},
		{"{#detail}", "{#details}", `docs/index/fr.md: section more: heading ids differ from the English section's: lacks "detail", has "details" besides (give its headings the English ids ({#id}), in the same order)`},
		{"`limit` et", "`limite` et", `docs/index/fr.md: section intro: code spans differ from the English section's: lacks "limit", has "limite" besides (code stays as the English section has it: translate the words around it)`},
		{"(other.html#end)", "(index.html#more)", `docs/index/fr.md: section intro: links differ from the English section's: lacks "other.html#end", has "index.html#more" besides (link where the English section links)`},
		{"## Plus {#more}", "## Plus {#more}\n\n## Encore {#more}", `docs/index/fr.md: section more: the translation has two sections {#more}: keep one, where index/en.md has it`},
	} {
		docs := translatedDocs(t)
		edit(t, docs, "index/fr.md", tt.from, tt.to)
		_, err := Build(Config{Root: testRoot(t), Docs: docs, DocsDir: "docs"})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s → %s: Build error\n%v\nwant\n%s", tt.from, tt.to, err, tt.want)
		}
		var be *BuildError
		if !errors.As(err, &be) || len(be.Errors) != 1 || be.Errors[0].Page != "index" || be.Errors[0].Lang != "fr" {
			t.Errorf("Build error is not one *BuildError of index in fr: %#v", err)
		}
	}
}

// TestErrorsOnce checks that a directive or link broken in English is
// reported once, for the English page, though the translations include
// it too.
func TestErrorsOnce(t *testing.T) {
	docs := translatedDocs(t)
	docs["lang/de.json"] = docs["lang/en.json"]
	docs["index/de.md"] = &fstest.MapFile{Data: docs["index/fr.md"].Data}
	for _, lang := range []string{"en", "fr", "de"} {
		edit(t, docs, "index/"+lang+".md", "main.go limit", "main.go limits")
	}
	_, err := Build(Config{Root: testRoot(t), Docs: docs, DocsDir: "docs"})
	want := `docs/index/en.md: section intro: :::go chapters/01-demo/main.go limits: chapters/01-demo/main.go has no declaration named limits: name a func, type, const or var it declares (a method as Type.Method), or fix the name (the same in de, fr)`
	if err == nil || err.Error() != want {
		t.Errorf("Build error\n%v\nwant\n%s", err, want)
	}

	docs = translatedDocs(t)
	edit(t, docs, "other/en.md", "index.html#more", "index.html#mor")
	edit(t, docs, "other/fr.md", "index.html#more", "index.html#mor")
	_, err = Build(Config{Root: testRoot(t), Docs: docs, DocsDir: "docs"})
	want = `docs/other/en.md: section end: link "index.html#mor": index.html has no anchor #mor (no heading there ends in {#mor}, and no transcript has that id) (the same in fr)`
	if err == nil || err.Error() != want {
		t.Errorf("Build error\n%v\nwant\n%s", err, want)
	}
}

// TestStatus checks the status of translations: its counts by language,
// its list of sections behind, and how many it returns.
func TestStatus(t *testing.T) {
	docs := translatedDocs(t)
	docs["lang/de.json"] = docs["lang/en.json"]
	status := func(verbose bool) (string, int) {
		t.Helper()
		list, err := Translations(docs)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		n, err := WriteStatus(&b, list, verbose)
		if err != nil {
			t.Fatal(err)
		}
		return b.String(), n
	}
	out, n := status(true)
	want := "language  pages  current  behind  missing\n" +
		"de          0/2        0       0        5\n" +
		"fr          2/2        5       0        0\n" +
		"Every translated section follows the English as it is.\n" +
		"\n" +
		"Not translated:\n" +
		"  index  de\n" +
		"  other  de\n"
	if out != want || n != 0 {
		t.Errorf("status -v (%d behind):\n%s\nwant:\n%s", n, out, want)
	}
	edit(t, docs, "index/en.md", "More text.", "More text, edited.")
	edit(t, docs, "index/en.md", "## More {#more}", "## New {#new}\n\nNew.\n\n## More {#more}")
	out, n = status(false)
	want = "language  pages  current  behind  missing\n" +
		"de          0/2        0       0        6\n" +
		"fr          2/2        4       2        0\n" +
		"2 sections are behind English (go run ./docs status -v lists them).\n"
	if out != want || n != 2 {
		t.Errorf("status (%d behind):\n%s\nwant:\n%s", n, out, want)
	}
	out, _ = status(true)
	if !strings.Contains(out, "  index#new   new      fr\n  index#more  changed  fr\n") {
		t.Errorf("status -v does not list the sections behind:\n%s", out)
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
// Japanese characters (the long-vowel mark ー included) joins them; between Korean words, or Latin ones, it
// is a space.
func TestLineBreaks(t *testing.T) {
	s := mustBuild(t, en("index", "次が 01 章の\nサーバー\nです。\n\n服务器\n返回错误。见\n[下文](#a)。\n\n서버\n전체입니다.\n\nthe\nserver; see\n[below](#a) and\n`code`.\n\n## A {#a}\n"))
	page := string(s.Files["index.html"])
	for _, want := range []string{"01 章のサーバーです。", "服务器返回错误。见<a", "서버\n전체입니다.", "the\nserver; see\n<a", "and\n<code"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}

// TestWholeSpans: a short code span, with a space or not, is kept on one
// line; a long one may wrap.
func TestWholeSpans(t *testing.T) {
	long := strings.Repeat("x", wholeSpan+1)
	s := mustBuild(t, en("index", "Run `-junit`, `-tools NAMES`, `"+long[1:]+"` or `"+long+"`.\n"))
	page := string(s.Files["index.html"])
	for _, want := range []string{
		`<code class="whole">-junit</code>`,
		`<code class="whole">-tools NAMES</code>`,
		`<code class="whole">` + long[1:] + `</code>`,
		`<code>` + long + `</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %s", want)
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
	if a[0].version != b[0].version || a[1].version == b[1].version || a[2].version != b[2].version {
		t.Errorf("an edit in section one changed %v into %v", a, b)
	}
	if c := splitSections("T", "S2", []byte(body)); c[0].version == a[0].version || c[1].version != a[1].version {
		t.Errorf("a summary edit changed %v into %v", a, c)
	}
}

// TestRowHeaders: in a table whose top-left header cell is empty, the
// first cell of each row is a row header; in any other table, a data cell.
func TestRowHeaders(t *testing.T) {
	s := mustBuild(t, en("index", "| | a | b |\n| --- | --- | --- |\n| one | 1 | 2 |\n\n| x | a |\n| --- | --- |\n| two | 3 |\n"))
	page := string(s.Files["index.html"])
	for _, want := range []string{"<th></th>\n<th>a</th>", "<th scope=\"row\">one</th>\n<td>1</td>", "<td>two</td>\n<td>3</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q:\n%s", want, page)
		}
	}
}
