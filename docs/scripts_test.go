package main

import (
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/chromedp/chromedp"

	"github.com/mcpbookshop/guide/internal/site"
)

// scriptsDir holds one short page in English and in languages of several
// scripts, the test data of internal/site's search tests.
const scriptsDir = "../internal/site/testdata/scripts"

// scriptFonts names, for each language of the scripts' page, a font of the
// style sheet's stack for its script that no other stack names.
var scriptFonts = map[string]string{
	"hi": "Nirmala UI", "ja": "Hiragino Sans", "ko": "Apple SD Gothic Neo",
	"ru": "DejaVu Sans", "zh-Hans": "PingFang SC", "zh-Hant": "PingFang TC",
}

// scriptsSite builds a site of the page in scriptsDir with the guide's
// theme; every language has the English interface strings.
func scriptsSite(t *testing.T) *site.Site {
	t.Helper()
	docs := fstest.MapFS{"pages.txt": {Data: []byte("index\n")}}
	for _, name := range []string{"theme/page.html", "theme/style.css", "theme/site.js", "lang/en.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = &fstest.MapFile{Data: b}
	}
	files, err := filepath.Glob(filepath.Join(scriptsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lang := strings.TrimSuffix(filepath.Base(f), ".md")
		docs["index/"+lang+".md"] = &fstest.MapFile{Data: b}
		if lang != site.SourceLanguage {
			docs["lang/"+lang+".json"] = docs["lang/en.json"]
		}
	}
	// Each translation follows the English fixture as it is.
	for _, f := range files {
		if lang := strings.TrimSuffix(filepath.Base(f), ".md"); lang != site.SourceLanguage {
			name := "index/" + lang + ".md"
			docs[name].Data = []byte(strings.Replace(string(docs[name].Data), "---\n", "---\nsource: pending\n", 1))
			b, err := site.Stamp(docs, "index", lang)
			if err != nil {
				t.Fatal(err)
			}
			docs[name].Data = b
		}
	}
	s, err := site.Build(site.Config{Root: os.DirFS(testRoot), Docs: docs})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testScripts checks the page of scriptsDir in every language as the
// crawl checks the guide's, at phone width (its long code span fits no
// phone unless it breaks; its search finds two characters of Japanese and
// Chinese), and that each script has its fonts, line height and line
// breaking, also for the language names in the switcher.
func testScripts(t *testing.T, pool *tabs) {
	s := scriptsSite(t)
	srv := httptest.NewServer(site.Handler(s))
	defer srv.Close()
	all, err := uiStrings(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	ui := make(map[string]map[string]string) // English everywhere: nothing to compare
	var pages []string
	for name := range s.Files {
		if strings.HasSuffix(name, ".html") {
			pages = append(pages, name)
			ui[langOf(name)] = all[site.SourceLanguage]
		}
	}
	slices.Sort(pages)
	var links linkSet
	b := pool.get(t)
	vp := phone
	b.viewport(t, vp.width, vp.height, vp.opts...)
	for _, page := range pages {
		checkPage(t, b, srv.URL, page, vp, nil, ui, &links)
		lang := langOf(page)
		var got struct {
			Font, LineBreak, WordBreak string
			Leading                    float64
			Switcher                   map[string]string // a language's font-family in the switcher
		}
		b.eval(t, `(() => {
			const s = getComputedStyle(document.querySelector("article p"));
			return {font: s.fontFamily, lineBreak: s.lineBreak, wordBreak: s.wordBreak,
				leading: parseFloat(s.lineHeight) / parseFloat(s.fontSize),
				switcher: Object.fromEntries([...document.querySelectorAll("details.langs a")].map(a => [a.lang, getComputedStyle(a).fontFamily]))};
		})()`, &got)
		what := page + " at " + vp.name + " width"
		for l, font := range scriptFonts {
			if strings.Contains(got.Font, `"`+font+`"`) != (l == lang) {
				t.Errorf("%s: font-family %s (%s's stack names %s)", what, got.Font, l, font)
			}
			if !strings.Contains(got.Switcher[l], `"`+font+`"`) {
				t.Errorf("%s: the switcher's %s is set in %s, not %s's stack", what, l, got.Switcher[l], l)
			}
		}
		cjk := lang == "ja" || strings.HasPrefix(lang, "zh")
		if cjk && (got.LineBreak != "strict" || got.WordBreak != "normal") || lang == "ko" && got.WordBreak != "keep-all" {
			t.Errorf("%s: line-break %s, word-break %s", what, got.LineBreak, got.WordBreak)
		}
		if tall := cjk || lang == "ko" || lang == "hi"; tall != (got.Leading > 1.7) {
			t.Errorf("%s: line height %.2f times the font size", what, got.Leading)
		}
		if *screenshots != "" {
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			shot(t, *screenshots, "scripts-"+vp.name+"-"+strings.ReplaceAll(path.Dir(page), ".", "en"), png)
		}
	}
	links.check(t, srv.URL)
}
