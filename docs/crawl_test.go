package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/mcpbookshop/guide/internal/site"
)

// The crawl's extents: which of the site's pages the browser test visits,
// at desktop and at phone width.
const (
	crawlAll    = "all"    // every page of every language
	crawlSample = "sample" // one page of each language, a different one each
	crawlSmoke  = "smoke"  // the landing page, and one page's Run buttons
	crawlListed = "listed" // the pages the flag names, and one page's Run buttons
)

var crawlFlag = flag.String("crawl", os.Getenv("GUIDE_CRAWL"),
	"the pages the browser test visits at both widths: `all`, sample (one page of each language, a different one each; the default), smoke (the landing page; the default under -race), or pages of the site by name, separated by commas (ja/tool-errors.html,errors.html); the environment's GUIDE_CRAWL sets the default")

// raceEnabled is set under the race detector (race_test.go), which the
// crawl need not repeat.
var raceEnabled bool

// crawlMode returns the crawl the test was asked for.
func crawlMode() (string, error) {
	switch *crawlFlag {
	case crawlAll, crawlSample, crawlSmoke:
		return *crawlFlag, nil
	case "":
		if raceEnabled {
			return crawlSmoke, nil
		}
		return crawlSample, nil
	}
	for _, page := range strings.Split(*crawlFlag, ",") {
		if !strings.HasSuffix(page, ".html") {
			return "", fmt.Errorf("-crawl=%q: want %s, %s, %s or pages of the site separated by commas, such as ja/tool-errors.html,errors.html", *crawlFlag, crawlAll, crawlSample, crawlSmoke)
		}
	}
	return crawlListed, nil
}

// langOf returns the language of a page by its path in the site.
func langOf(page string) string {
	if lang, _, ok := strings.Cut(page, "/"); ok {
		return lang
	}
	return site.SourceLanguage
}

// crawlPages returns the pages of s that a crawl visits, sorted; an error
// names a page the flag lists that s does not have.
func crawlPages(s *site.Site, mode string) ([]string, error) {
	byLang := make(map[string][]string)
	for name := range s.Files {
		if strings.HasSuffix(name, ".html") {
			byLang[langOf(name)] = append(byLang[langOf(name)], name)
		}
	}
	langs := make([]string, 0, len(byLang))
	for lang, pages := range byLang {
		slices.Sort(pages)
		langs = append(langs, lang)
	}
	slices.Sort(langs)
	var out []string
	switch mode {
	case crawlSmoke:
		return []string{"index.html"}, nil
	case crawlListed:
		for _, page := range strings.Split(*crawlFlag, ",") {
			if _, ok := s.Files[page]; !ok {
				return nil, fmt.Errorf("-crawl: the site has no page %s; its pages are named as in the site, e.g. tool-errors.html, ja/tool-errors.html", page)
			}
			out = append(out, page)
		}
	case crawlAll:
		for _, lang := range langs {
			out = append(out, byLang[lang]...)
		}
	case crawlSample:
		// Each language's i-th page, so that the languages between them
		// cover every page once there are as many languages as pages.
		for i, lang := range langs {
			out = append(out, byLang[lang][i%len(byLang[lang])])
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// uiStrings reads the interface strings of every language of a docs tree.
func uiStrings(docs fs.FS) (map[string]map[string]string, error) {
	files, err := fs.Glob(docs, "lang/*.json")
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]string)
	for _, f := range files {
		b, err := fs.ReadFile(docs, f)
		if err != nil {
			return nil, err
		}
		var l struct{ UI map[string]string }
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(path.Base(f), ".json")] = l.UI
	}
	return out, nil
}

// pageReport is what a visited page says of itself: see pageChecks.
type pageReport struct {
	Lang         string
	Broken       []string // images that did not load
	Hrefs        []string // every link, stylesheet and script
	Resources    []string // everything the page loaded
	Overflow     []string // what sticks out of the page's width, if it is wider than the screen
	Untranslated []string
	Alternates   [][2]string // link rel=alternate: hreflang, href
	Switcher     [][3]string // the language switcher: hreflang, lang, href without the fragment
	Word         string      // a word of the page's own text
	// TokenMismatch lists the sections of the search index that the
	// page's script splits into other tokens than the generator.
	TokenMismatch []string
}

// pageChecks is a function of the English interface strings and the
// page's language's, run in the page, that returns its pageReport.
const pageChecks = `(en, ui) => {
	const lang = document.documentElement.lang;
	const langOf = n => ((n.nodeType === 1 ? n : n.parentElement).closest("[lang]") || {}).lang;
	const de = document.documentElement;

	// The interface strings, in English, that the language has its own
	// words for, anywhere in the page's chrome and the widgets of its
	// article, outside code and text marked as another language.
	const esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const english = Object.keys(en).filter(k => ui[k] !== en[k]).map(k => [k, new RegExp("^" + en[k].split("%s").map(esc).join(".+") + "$")]);
	const untranslated = [];
	const flag = (where, text) => {
		text = text.replace(/\s+/g, " ").trim();
		for (const [k, re] of english) { if (re.test(text)) { untranslated.push(k + " (" + where + "): " + text); } }
	};
	const chrome = "header.top, .skip, .sidebar, .toc, .toc-inline > summary, .eyebrow, .banner, .pager, .foot, " +
		"article figcaption, article .label, article button, article .noreply, article summary, article .run, article .run-note, " +
		"article .error-row dt, article .error-row dd, table.errors th, table.errors td";
	for (const el of document.querySelectorAll(chrome)) {
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n; (n = walk.nextNode());) {
			if (!n.parentElement.closest("pre, code") && langOf(n) === lang) { flag(el.tagName.toLowerCase() + "." + el.className, n.textContent); }
		}
	}
	for (const el of document.querySelectorAll("[placeholder], [aria-label], [title], [alt]")) {
		for (const a of ["placeholder", "aria-label", "title", "alt"]) {
			if (el.hasAttribute(a) && langOf(el) === lang) { flag(a, el.getAttribute(a)); }
		}
	}

	// What makes the page wider than the screen: elements past its right
	// edge that no box scrolls or clips.
	let overflow = [];
	if (de.scrollWidth > de.clientWidth) {
		const contained = e => {
			for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
				if (getComputedStyle(p).overflowX !== "visible") { return true; }
			}
			return false;
		};
		overflow = [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > de.clientWidth + 1 && !contained(e))
			.slice(0, 5).map(e => e.tagName.toLowerCase() + "." + e.className + ": " + e.textContent.trim().slice(0, 80));
		overflow.unshift("scrollWidth " + de.scrollWidth + " > " + de.clientWidth);
	}

	// A word of the page's own prose, not code nor text in another
	// language: the longest, or in Japanese and Chinese, written without
	// spaces, two characters from the middle of the longest run of Han and
	// kana.
	const prose = [...document.querySelectorAll("article > :is(p, ul, ol, blockquote, h2, h3):not(.eyebrow, .banner, .cards)")].map(e => {
		const c = e.cloneNode(true);
		c.querySelectorAll("code, pre, [lang]").forEach(x => x.remove());
		return c.textContent;
	}).join(" ");
	let word = "";
	if (/^(ja|zh)\b/.test(lang)) {
		const runs = (prose.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]{2,}/gu) || []).map(r => Array.from(r));
		const run = runs.reduce((a, b) => b.length > a.length ? b : a, []);
		const at = Math.floor((run.length - 2) / 2);
		word = run.slice(at, at + 2).join("");
	} else {
		word = (prose.match(/[\p{L}\p{M}]+/gu) || []).reduce((a, b) => Array.from(b).length > Array.from(a).length ? b : a, "");
	}

	return {
		lang,
		broken: [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),
		hrefs: [...document.querySelectorAll("a[href], link[href], script[src]")].map(e => e.href || e.src),
		resources: performance.getEntriesByType("resource").map(e => e.name),
		overflow,
		untranslated,
		alternates: [...document.querySelectorAll("link[rel=alternate][hreflang]")].map(l => [l.hreflang, l.href]),
		switcher: [...document.querySelectorAll("details.langs a")].map(a => [a.hreflang, a.lang, a.href.split("#")[0]]),
		word,
		// Where site.js splits a section's text otherwise than the
		// generator did for the index.
		tokenMismatch: (window.guideSearchIndex || []).filter(e => guideSearchTokens(e.p + " " + e.h).join(" ") !== e.k || guideSearchTokens(e.t).join(" ") !== e.w).map(e => e.u),
	};
}`

// crawlSite visits pages of the site at base in one tab at width vp and
// checks each (see checkPage); the links they hold go into links. It
// visits part of parts of them, the pages whose index is part modulo
// parts. The crawls at desktop and at phone width take turns at running
// a page's transcripts (every other page), each checking the page after
// its Runs at both widths: a Run loads the chapter's module.
func crawlSite(t *testing.T, b *tab, base string, vp viewport, pages []string, part, parts int, ui map[string]map[string]string, links *linkSet) {
	b.viewport(t, vp.width, vp.height, vp.opts...)
	other := phone
	if vp.name == phone.name {
		other = desktop
	}
	var running time.Duration
	checked := 0
	for i, page := range pages {
		if i%parts != part {
			continue
		}
		var runs *viewport
		if (i/parts%2 == 0) == (vp.name == desktop.name) {
			runs = &other
		}
		running += checkPage(t, b, base, page, vp, runs, ui, links)
		checked++
	}
	t.Logf("%d pages checked at %d px; running their transcripts took %v", checked, vp.width, running.Round(time.Second))
}

// checkPage visits a page and checks it: its lang; no console error; no
// image that does not load, nothing loaded from elsewhere, no chapter
// module before a Run, and its own language's search index only; nothing wider than the screen; no interface string
// left in English; a rel=alternate link for each language of the switcher
// and x-default; no serious or critical violation that axe-core finds (see
// tab.audit); and a search for a word of its own text finds sections of
// its own language only, its own among them, and its results list passes
// axe-core too. If runs is not nil, it also runs the page's transcripts
// and checks the page with their live replies at width vp and at *runs;
// it returns the time the Runs took.
func checkPage(t *testing.T, b *tab, base, page string, vp viewport, runs *viewport, ui map[string]map[string]string, links *linkSet) (running time.Duration) {
	t.Helper()
	what := fmt.Sprintf("%s at %d px", page, vp.width)
	b.visit(t, base+"/"+page)
	want := langOf(page)
	en, _ := json.Marshal(ui[site.SourceLanguage])
	own, _ := json.Marshal(ui[want])
	var r pageReport
	b.eval(t, "("+pageChecks+")("+string(en)+", "+string(own)+")", &r)
	if r.Lang != want {
		t.Errorf("%s: lang=%q, want %q", what, r.Lang, want)
	}
	if len(r.Broken) > 0 {
		t.Errorf("%s: broken images %v", what, r.Broken)
	}
	ownIndex := false
	for _, res := range r.Resources {
		if index, ok := strings.CutPrefix(res, base+"/assets/search-"); ok {
			ownIndex = ownIndex || index == want+".js"
			if index != want+".js" {
				t.Errorf("%s loads another language's search index: %s", what, res)
			}
		}
		if !strings.HasPrefix(res, base+"/") {
			t.Errorf("%s loads %s, which is not the site's", what, res)
		} else if strings.Contains(res, "/assets/run/") {
			t.Errorf("%s loads a chapter's module before any Run: %s", what, res)
		}
	}
	if !ownIndex {
		t.Errorf("%s does not load its language's search index, assets/search-%s.js", what, want)
	}
	if len(r.TokenMismatch) > 0 {
		t.Errorf("%s: site.js splits these sections of the search index into other tokens than the generator: %v", what, r.TokenMismatch)
	}
	if len(r.Overflow) > 0 {
		t.Errorf("%s: the page is wider than the screen:\n%s", what, strings.Join(r.Overflow, "\n"))
	}
	if len(r.Untranslated) > 0 {
		t.Errorf("%s: interface strings in English:\n%s", what, strings.Join(r.Untranslated, "\n"))
	}
	checkAlternates(t, what, r)
	links.add(r.Hrefs)

	if *screenshots != "" {
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		shot(t, *screenshots, "crawl-"+vp.name+"-"+strings.NewReplacer("/", "-", ".html", "").Replace(page), png)
	}
	b.audit(t, what, "")
	if runs != nil {
		// The page once its transcripts have run: the live replies beside
		// the pinned ones.
		var ran []string
		start := time.Now()
		b.eval(t, runAll, &ran)
		running = time.Since(start)
		for _, r := range ran {
			if !strings.Contains(r, "run-status ok") {
				t.Errorf("%s: a Run: %s", what, r)
			}
		}
		if len(ran) > 0 {
			b.audit(t, fmt.Sprintf("%s after %d Runs", what, len(ran)), "")
			b.viewport(t, runs.width, runs.height, runs.opts...)
			b.audit(t, fmt.Sprintf("%s at %d px after %d Runs", page, runs.width, len(ran)), "")
			b.viewport(t, vp.width, vp.height, vp.opts...)
		}
	}
	if r.Word == "" {
		t.Errorf("%s: no word in its text to search for", what)
	} else {
		searchFor(t, b, base, page, r.Word, vp)
		b.audit(t, what+": the search results", "#search-results")
	}
	b.check(t, what)
	return running
}

// runAll is a script that clicks the page's Run buttons in turn, each once
// the one before has answered or a minute has passed, and resolves to what
// their status says: the figure's id, the status's class and its text.
const runAll = `(async () => {
	const out = [];
	for (const run of document.querySelectorAll("figure .run")) {
		const status = run.querySelector(".run-status");
		await new Promise(resolve => {
			const done = () => { obs.disconnect(); clearTimeout(deadline); resolve(); };
			const obs = new MutationObserver(() => { if (/\b(ok|bad)\b/.test(status.className)) { done(); } });
			const deadline = setTimeout(done, 60000);
			obs.observe(status, {attributes: true, childList: true, characterData: true, subtree: true});
			run.querySelector(".run-button").click();
		});
		out.push(run.closest("figure").id + ": " + status.className + ": " + status.textContent);
	}
	return out;
})()`

// checkAlternates checks that a page's rel=alternate links are the
// languages of its switcher, plus x-default for the English page, and that
// each switcher link says its language.
func checkAlternates(t *testing.T, what string, r pageReport) {
	t.Helper()
	want := make(map[string]string)
	for _, s := range r.Switcher {
		if s[0] != s[1] {
			t.Errorf("%s: the switcher's link to %s says lang=%q", what, s[0], s[1])
		}
		want[s[0]] = s[2]
		if s[0] == site.SourceLanguage {
			want["x-default"] = s[2]
		}
	}
	got := make(map[string]string)
	for _, a := range r.Alternates {
		got[a[0]] = a[1]
	}
	if len(want) < 2 || !maps.Equal(got, want) {
		t.Errorf("%s: rel=alternate links %v, want %v (the switcher's, and x-default for English)", what, got, want)
	}
}

// searchFor types word into the search box of the page the tab shows, as
// an input method commits it, and checks what it finds: at least one
// section, all in the page's language, the page itself among them unless
// the list is full.
func searchFor(t *testing.T, b *tab, base, page, word string, vp viewport) {
	t.Helper()
	what := fmt.Sprintf("%s at %d px: searching %q", page, vp.width, word)
	var ok bool
	b.eval(t, `(document.getElementById("search-input").focus(), document.activeElement.id === "search-input")`, &ok)
	if !ok {
		t.Fatalf("%s: the search box takes no focus", what)
	}
	if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: word}); err != nil {
		t.Fatal(err)
	}
	b.poll(t, `!document.getElementById("search-results").hidden`)
	var res struct {
		Hrefs       []string
		Left, Right float64
		Width       float64
	}
	b.eval(t, `(() => {
		const list = document.getElementById("search-results"), r = list.getBoundingClientRect();
		return {hrefs: [...list.querySelectorAll("a")].map(a => a.href), left: r.left, right: r.right, width: document.documentElement.clientWidth};
	})()`, &res)
	if len(res.Hrefs) == 0 {
		t.Errorf("%s found nothing", what)
		return
	}
	self := false
	for _, h := range res.Hrefs {
		p, _, _ := strings.Cut(strings.TrimPrefix(h, base+"/"), "#")
		if langOf(p) != langOf(page) {
			t.Errorf("%s found %s, a page in another language", what, h)
		}
		self = self || p == page
	}
	if !self && len(res.Hrefs) < 12 {
		t.Errorf("%s found %q, not the page itself", what, res.Hrefs)
	}
	if res.Left < 0 || res.Right > res.Width+1 {
		t.Errorf("%s: the results span %.0f to %.0f px of a screen %.0f px wide", what, res.Left, res.Right, res.Width)
	}
}

// linkSet gathers the links of the pages the crawl visits.
type linkSet struct {
	mu    sync.Mutex
	links map[string]bool
}

func (s *linkSet) add(links []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.links == nil {
		s.links = make(map[string]bool)
	}
	for _, l := range links {
		s.links[l] = true
	}
}

// check fails t for each link into the site at base whose file is missing
// or lacks the link's anchor; it fetches each file once.
func (s *linkSet) check(t *testing.T, base string) {
	bodies := make(map[string]string)
	for link := range s.links {
		u, err := url.Parse(link)
		if err != nil || !strings.HasPrefix(link, base) {
			continue
		}
		body, ok := bodies[u.Path]
		if !ok {
			res, err := http.Get(base + u.Path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("broken link %s: %s", link, res.Status)
			}
			body = string(b)
			bodies[u.Path] = body
		}
		if u.Fragment != "" && !strings.Contains(body, `id="`+u.Fragment+`"`) {
			t.Errorf("broken anchor %s", link)
		}
	}
	t.Logf("%d distinct links into %d files checked", len(s.links), len(bodies))
}
