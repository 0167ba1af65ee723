package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/site"
)

var screenshots = flag.String("screenshots", "", "write the browser test's screenshots into this `folder`")

// The browser test's limits: the whole test, the whole test crawling every
// page (which .ci/run gives the time, with go test -timeout), and one wait
// in a page (the first Run of a chapter loads its module).
const (
	browserTimeout = 5 * time.Minute
	crawlTimeout   = 25 * time.Minute
	waitTimeout    = time.Minute
	pollInterval   = 50 * time.Millisecond
)

// testLang is a private-use language the browser test adds, so that the
// language switcher has somewhere to go and a translation that is behind.
const testLang = "x-test"

// findChromium returns the path of a Chromium or Chrome, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// docsWithTestLanguage is the docs tree plus testLang: its interface strings
// are English, and its landing page is the English one, recorded as
// following an older English text, so that it shows the banner.
func docsWithTestLanguage(t *testing.T) fs.FS {
	t.Helper()
	docs := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS("."), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".go") {
			return err
		}
		b, err := os.ReadFile(name)
		docs[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var en map[string]any
	if err := json.Unmarshal(docs["lang/en.json"].Data, &en); err != nil {
		t.Fatal(err)
	}
	en["name"] = "Test"
	lang, _ := json.Marshal(en)
	docs["lang/"+testLang+".json"] = &fstest.MapFile{Data: lang}
	index := strings.Replace(string(docs["index/en.md"].Data), "---\n", "---\nsource:\n  (top): 000000000000\n", 1)
	docs["index/"+testLang+".md"] = &fstest.MapFile{Data: []byte(index)}
	return docs
}

// TestBrowser drives headless Chromium through the guide: the served site
// (with a test language), and the static build opened from file:// and from
// a plain static file server, whose Run buttons the chapters answer from
// inside the page. It crawls the served site's pages in every language at
// desktop and phone width (see checkPage): a sample of them, or all with
// -crawl=all (see crawlFlag). Its subtests run in parallel in the tabs of
// one browser; each is a method of browserEnv, whose doc comment says what
// it checks.
//
// It is a long check: it runs with GUIDE_LONG=1, as in .ci/run. Each
// subtest runs alone with -run, the spaces of its name written as
// underscores; the browser and the sites are set up whichever runs:
//
//	GUIDE_LONG=1 go test ./docs -run 'TestBrowser/tabs/copy_button'
//	GUIDE_LONG=1 go test ./docs -run 'TestBrowser/tabs/run_the_transcripts_from_file$'
//	GUIDE_LONG=1 go test ./docs -run 'TestBrowser/tabs/share'
//	GUIDE_LONG=1 go test ./docs -run 'TestBrowser/tabs/crawl_at_phone_width' -crawl=ja/tool-errors.html
//
// GUIDE_LONG=1 go test -v ./docs -run TestBrowser lists them all. "links" checks the
// links the crawl subtests found, so it has nothing to check without them.
func TestBrowser(t *testing.T) {
	env := newBrowserEnv(t)
	// The subtests run in parallel, each in a tab of the pool; the links
	// the crawl found are checked once it is done.
	t.Run("tabs", func(t *testing.T) {
		for _, host := range env.hosts {
			t.Run("run the transcripts from "+host.name, func(t *testing.T) { env.checkTranscripts(t, host) })
		}
		for _, c := range crawlParts() {
			t.Run(c.name, func(t *testing.T) { env.checkCrawl(t, c) })
		}
		t.Run("scripts", env.checkScripts)
		t.Run("search", env.checkSearch)
		t.Run("keyboard", env.checkKeyboard)
		t.Run("dark scheme", env.checkDarkScheme)
		t.Run("language switcher", env.checkLanguageSwitcher)
		t.Run("copy button", env.checkCopyButton)
		t.Run("edit and send", env.checkEditAndSend)
		for _, h := range env.shareHosts() {
			t.Run("share a request from "+h.name, func(t *testing.T) { env.checkShare(t, h.base, h.clipboard) })
		}
		t.Run("layout", env.checkLayout)
		t.Run("screenshots", env.checkScreenshots)
	})
	t.Run("links", env.checkLinks)
}

// browserEnv is what TestBrowser's subtests share: the browser's tabs, the
// served site and the static build's hosts, and what the crawl visits and
// finds.
type browserEnv struct {
	root    string                       // the repository's root
	pool    *tabs                        // the tabs of the one browser, lent to the subtests
	url     string                       // the served site, with testLang; no trailing slash
	hosts   []staticHost                 // the static build's hosts: file:// first
	crawled []string                     // the served site's pages the crawl visits
	pinned  map[string]*site.Transcript  // the static build's transcripts, by their anchors
	ui      map[string]map[string]string // the interface strings, by language
	links   linkSet                      // the links the crawl found, checked once it is done
}

// staticHost is one place the static build is opened from, and the pages
// whose transcripts the test runs from there.
type staticHost struct {
	name, base string // base ends in a slash
	pages      []string
}

// newBrowserEnv starts the browser and, while it starts, builds the served
// site (with testLang) and the static build and serves them; the servers,
// the browser and the axe-core report end with t. It skips t as
// startBrowser does.
func newBrowserEnv(t *testing.T) *browserEnv {
	t.Helper()
	crawl, err := crawlMode()
	if err != nil {
		t.Fatal(err)
	}
	timeout := browserTimeout
	if crawl == crawlAll {
		timeout = crawlTimeout
	}
	ctx, started := startBrowser(t, timeout)
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	// The static build is the one the other tests share: build it meanwhile.
	go builtSite()

	modules, err := testBrowser()
	if err != nil {
		t.Fatalf("compiling the chapters for the browser: %v", err)
	}
	cfg := config(root, modules)
	cfg.Docs = docsWithTestLanguage(t)
	s, err := site.Build(cfg)
	if err != nil {
		t.Fatalf("the guide does not build:\n%v", err)
	}
	srv := httptest.NewServer(site.Handler(s))
	t.Cleanup(srv.Close)
	// The static build, as go run ./docs build writes it, from file:// and
	// from a static file server that knows nothing of the guide.
	static := testSite(t)
	dir := t.TempDir()
	if err := static.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	fileSrv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(fileSrv.Close)
	hosts := []staticHost{
		{name: "file", base: "file://" + filepath.ToSlash(dir) + "/"},
		{name: "static server", base: fileSrv.URL + "/"},
	}
	// The Run buttons of the static site, on every page, from each host.
	var pagesWithRun []string
	for name, b := range static.Files {
		if strings.HasSuffix(name, ".html") && !strings.Contains(name, "/") && strings.Contains(string(b), `class="run-button"`) {
			pagesWithRun = append(pagesWithRun, name)
		}
	}
	slices.Sort(pagesWithRun)
	for i := range hosts {
		// The hosts differ only in how a page loads its scripts: the
		// sample runs every transcript from the first and one page's
		// from the others; the full crawl, every one from each.
		hosts[i].pages = pagesWithRun
		if crawl == crawlSmoke || crawl == crawlListed || (crawl == crawlSample && i > 0) {
			hosts[i].pages = pagesWithRun[:1]
		}
	}

	if err := <-started; err != nil {
		t.Fatalf("starting the browser: %v", err)
	}
	pool := newTabs(ctx, runtime.GOMAXPROCS(0))
	pool.axe, err = newAxeAudit()
	if err != nil {
		// Said twice: in the parent's log, and as a skipped subtest that
		// go test -v lists.
		t.Log(err)
		t.Run("axe-core", func(t *testing.T) { t.Skip(err) })
	}
	t.Cleanup(func() { pool.axe.report(t) })

	ui, err := uiStrings(cfg.Docs)
	if err != nil {
		t.Fatal(err)
	}
	crawled, err := crawlPages(s, crawl)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("crawl=%s: %d of the site's pages, at both widths", crawl, len(crawled))
	pinned := make(map[string]*site.Transcript)
	for _, tr := range static.Transcripts {
		pinned[tr.ID()] = tr
	}
	return &browserEnv{root: root, pool: pool, url: srv.URL, hosts: hosts, crawled: crawled, pinned: pinned, ui: ui}
}

// crawlPart is one crawl subtest: part of parts of the crawled pages, at
// the width of vp.
type crawlPart struct {
	name        string
	vp          viewport
	part, parts int
}

// crawlParts returns the crawl subtests: each width's crawl in as many
// parts as a machine with more than two cores runs side by side, since
// axe-core's check is the slow part.
func crawlParts() []crawlPart {
	parts := max(1, runtime.GOMAXPROCS(0)/2)
	var all []crawlPart
	for _, vp := range []viewport{desktop, phone} {
		for part := range parts {
			name := "crawl at " + vp.name + " width"
			if parts > 1 {
				name += fmt.Sprintf(" (%d of %d)", part+1, parts)
			}
			all = append(all, crawlPart{name: name, vp: vp, part: part, parts: parts})
		}
	}
	return all
}

// checkTranscripts opens each of host's pages of the static build and
// clicks every Run: each run's status must say ok and each live reply
// equal its pin, and no request may leave the page's files; axe-core
// checks each page before and after its Runs. It logs the time from a
// click to the replies, for the first Run of a page (which loads the
// chapter's module) and the later ones.
func (env *browserEnv) checkTranscripts(t *testing.T, host staticHost) {
	t.Parallel()
	b := env.pool.get(t)
	ran, differ := 0, 0
	var cold, warm []float64 // milliseconds from a click to the replies
	for _, page := range host.pages {
		b.visit(t, host.base+page)
		b.audit(t, host.name+" "+page, "")
		var figures []string
		b.eval(t, `[...document.querySelectorAll("figure.transcript")].filter(f => f.querySelector(".run-button")).map(f => f.id)`, &figures)
		for j, id := range figures {
			// Time each Run from the click to the replies shown; the
			// first of a page loads the chapter's module.
			var ms float64
			b.eval(t, clickAndTime(id), &ms)
			if j == 0 {
				cold = append(cold, ms)
			} else {
				warm = append(warm, ms)
			}
			b.poll(t, `/\b(ok|bad)\b/.test(document.querySelector("#`+id+` .run-status").className)`)
			var res struct {
				Status    string
				Exchanges []struct {
					Pinned, Live string
					Differs      bool
				}
			}
			b.eval(t, `({
			status: document.querySelector("#`+id+` .run-status").className + ": " + document.querySelector("#`+id+` .run-status").textContent,
			exchanges: [...document.querySelectorAll("#`+id+` .exchange")].map(ex => ({
				pinned: ex.querySelector(".msg.res").querySelector("pre, .noreply").textContent,
				live: ex.querySelector(".msg.live").querySelector("pre, .noreply").textContent,
				differs: ex.querySelector(".msg.live").classList.contains("differs")}))
		})`, &res)
			var wrong strings.Builder
			if !strings.HasPrefix(res.Status, "run-status ok") {
				fmt.Fprintf(&wrong, "run status %q, want ok\n", res.Status)
			}
			for k, ex := range res.Exchanges {
				if ex.Differs || ex.Pinned != ex.Live {
					fmt.Fprintf(&wrong, "exchange %d: live response (differs=%v)\n%s\nwant the pinned\n%s\n", k, ex.Differs, ex.Live, ex.Pinned)
				}
			}
			if wrong.Len() > 0 {
				differ++
				t.Errorf("%s#%s: %s%s", page, id, wrong.String(), env.pinHelp(id))
			}
			ran++
		}
		var requests []struct{ Name, Type string }
		b.eval(t, `performance.getEntriesByType("resource").map(e => ({name: e.name, type: e.initiatorType}))`, &requests)
		for _, r := range requests {
			if !strings.HasPrefix(r.Name, host.base) || r.Type == "fetch" || r.Type == "xmlhttprequest" || r.Type == "beacon" {
				t.Errorf("%s: a request leaves the page's files: %s (%s)", page, r.Name, r.Type)
			}
		}
		b.audit(t, fmt.Sprintf("%s %s after %d Runs", host.name, page, len(figures)), "")
		b.check(t, host.name+" "+page)
	}
	if ran == 0 {
		t.Fatal("no transcript has a Run button")
	}
	if differ == 0 {
		t.Logf("%s: %d transcripts on %d pages run, every live reply equal to its pin", host.name, ran, len(host.pages))
	} else {
		t.Logf("%s: %d transcripts on %d pages run, %d of them not as pinned (above)", host.name, ran, len(host.pages), differ)
	}
	slices.Sort(cold)
	slices.Sort(warm)
	if len(cold) > 0 && len(warm) > 0 {
		t.Logf("%s: click to replies: first Run of a page (loading the module) median %.0f ms (%.0f to %.0f); later Runs median %.0f ms",
			host.name, cold[len(cold)/2], cold[0], cold[len(cold)-1], warm[len(warm)/2])
	}
}

// pinHelp names the case and the pin of the transcript whose anchor is id,
// and how to refresh it (exchange.PinHelp).
func (env *browserEnv) pinHelp(id string) string {
	tr, ok := env.pinned[id]
	if !ok {
		return "(the static build has no transcript " + id + ")"
	}
	return exchange.PinHelp(filepath.Join(env.root, filepath.FromSlash(tr.Archive)), "want/"+tr.Case+".jsonl")
}

// checkCrawl visits its part of the crawled pages of the served site at its
// width and checks each (see crawlSite and checkPage); the links they hold
// go into env.links.
func (env *browserEnv) checkCrawl(t *testing.T, c crawlPart) {
	t.Parallel()
	crawlSite(t, env.pool.get(t), env.url, c.vp, env.crawled, c.part, c.parts, env.ui, &env.links)
}

// checkScripts checks a page in every language's script, with its own
// server (see testScripts).
func (env *browserEnv) checkScripts(t *testing.T) {
	t.Parallel()
	testScripts(t, env.pool)
}

// checkSearch searches the served landing page for isError: the results
// must name it, pass axe-core, and the first must open a page that holds
// the word.
func (env *browserEnv) checkSearch(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	b.visit(t, env.url+"/index.html")
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("#search-input"), "isError"),
		chromedp.WaitVisible(chromedp.CSS("#search-results a"))); err != nil {
		t.Fatal(err)
	}
	var hits []string
	b.eval(t, `[...document.querySelectorAll("#search-results a")].map(a => a.innerText)`, &hits)
	if len(hits) == 0 || !strings.Contains(strings.Join(hits, "\n"), "isError") {
		t.Fatalf("searching isError found %q", hits)
	}
	b.audit(t, "index.html with the search results for isError", "")
	var first string
	b.eval(t, `document.querySelector("#search-results a").href`, &first)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#search-results a"))); err != nil {
		t.Fatal(err)
	}
	b.poll(t, `location.href === "`+first+`" && document.readyState === "complete" && document.body.innerText.includes("isError")`)
	t.Logf("search for isError: %d results, the first: %s", len(hits), strings.Join(strings.Fields(hits[0]), " "))
}

// checkKeyboard walks the served site with the keyboard alone (see
// testKeyboard).
func (env *browserEnv) checkKeyboard(t *testing.T) {
	t.Parallel()
	testKeyboard(t, env.pool.get(t), env.url)
}

// checkDarkScheme has axe-core check Tool errors in the dark scheme,
// colours and contrasts included, at desktop and phone width: as loaded,
// after its Runs, with an edited request sent, and with search results.
func (env *browserEnv) checkDarkScheme(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	// The crawl sees the light scheme; axe-core checks the dark one
	// here, colours and contrasts included, on a page with
	// transcripts, before and after its Runs, and with search results.
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, vp := range []viewport{desktop, phone} {
		b.viewport(t, vp.width, vp.height, vp.opts...)
		what := fmt.Sprintf("tool-errors.html at %d px in the dark scheme", vp.width)
		b.visit(t, env.url+"/tool-errors.html")
		var dark bool
		b.eval(t, `matchMedia("(prefers-color-scheme: dark)").matches && getComputedStyle(document.body).backgroundColor !== "rgb(255, 255, 255)"`, &dark)
		if !dark {
			t.Fatalf("%s: the page is not dark", what)
		}
		b.audit(t, what, "")
		var ran []string
		b.eval(t, runAll, &ran)
		if len(ran) == 0 {
			t.Fatalf("%s: no transcript ran", what)
		}
		b.audit(t, what+" after its Runs", "")
		// An edited request, sent: the editor and its reply.
		const ex = "#t01-modern-tool-error .exchange"
		b.eval(t, `(document.querySelector("`+ex+` .edit").click(), document.querySelector("`+ex+` .editor .send").click(), true)`, new(bool))
		b.poll(t, `document.querySelector("`+ex+` .editor") !== null && /\b(ok|bad)\b|^run-status$/.test(document.querySelector("#t01-modern-tool-error .run-status").className) && !document.querySelector("#t01-modern-tool-error").classList.contains("busy")`)
		b.audit(t, what+" with an edited request sent", "")
		searchFor(t, b, env.url, "tool-errors.html", "isError", vp)
		b.audit(t, what+" with search results", "#search-results")
	}
}

// checkLanguageSwitcher switches the served landing page to testLang and
// back: only testLang's page shows the banner of a translation that is
// behind. Then a switch must keep the reader on the section the location
// names, or on the one scrolled to.
func (env *browserEnv) checkLanguageSwitcher(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	b.visit(t, env.url+"/index.html")
	for _, lang := range []string{testLang, site.SourceLanguage} {
		if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("details.langs summary")),
			chromedp.Click(chromedp.CSS(`details.langs a[hreflang="`+lang+`"]`), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		b.poll(t, `document.documentElement.lang === "`+lang+`" && document.readyState === "complete"`)
		var banner bool
		b.eval(t, `document.querySelector(".banner") !== null`, &banner)
		if banner != (lang == testLang) {
			t.Errorf("in %s, the behind banner shown=%v", lang, banner)
		}
	}

	// It keeps the reader on the section the location names, or
	// on the one scrolled to. The clicks are the mouse's, where the
	// elements are: chromedp.Click first scrolls them into view.
	click := func(t *testing.T, selector string) {
		t.Helper()
		var at []float64
		b.eval(t, `(() => { const r = document.querySelector('`+selector+`').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &at)
		if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(at[0], at[1])); err != nil {
			t.Fatal(err)
		}
	}
	switchTo := func(t *testing.T, lang string) (page, hash string) {
		t.Helper()
		click(t, "details.langs summary")
		click(t, `details.langs a[hreflang="`+lang+`"]`)
		b.poll(t, `document.documentElement.lang === "`+lang+`" && document.readyState === "complete"`)
		var at []string
		b.eval(t, `[location.pathname, location.hash]`, &at)
		return at[0], at[1]
	}
	b.visit(t, env.url+"/tool-errors.html#why")
	var other string
	b.eval(t, `([...document.querySelectorAll("details.langs a")].map(a => a.hreflang).filter(l => l !== "en" && l !== "`+testLang+`")[0] || "")`, &other)
	if other == "" {
		t.Fatal("tool-errors.html has no translation to switch to")
	}
	if page, hash := switchTo(t, other); page != "/"+other+"/tool-errors.html" || hash != "#why" {
		t.Errorf("switching from tool-errors.html#why to %s opened %s%s", other, page, hash)
	}
	var scrolled string
	b.eval(t, `(() => {
		history.replaceState(null, "", location.pathname);
		const hs = document.querySelectorAll("article h2[id]"), h = hs[Math.floor(hs.length / 2)];
		h.scrollIntoView();
		return h.id;
	})()`, &scrolled)
	if page, hash := switchTo(t, site.SourceLanguage); page != "/tool-errors.html" || hash != "#"+scrolled {
		t.Errorf("switching to English, scrolled to #%s, opened %s%s", scrolled, page, hash)
	}
	b.check(t, "the language switcher's pages")
}

// checkCopyButton clicks Copy on the first code block of Tool errors: the
// clipboard must hold chapters/01-tool-errors/main.go, line for line.
func (env *browserEnv) checkCopyButton(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	// The first block of Tool errors is the chapter's whole main.go:
	// what Copy gives must be that file, line for line.
	file, err := os.ReadFile(filepath.Join(env.root, "chapters", "01-tool-errors", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(string(file), "\n")
	b.visit(t, env.url+"/tool-errors.html")
	_, err = chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "clipboard-read"},
		Setting:    browser.PermissionSettingGranted,
		Origin:     env.url,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(".code .copy"))); err != nil {
		t.Fatal(err)
	}
	b.poll(t, `document.querySelector(".code .copy").dataset.copiedText !== undefined`)
	var got string
	b.eval(t, `navigator.clipboard.readText()`, &got)
	if got != want {
		t.Errorf("the clipboard holds %d lines:\n%s\nwant chapters/01-tool-errors/main.go, %d lines", strings.Count(got, "\n")+1, got, strings.Count(want, "\n")+1)
	}
}

// checkEditAndSend edits a request of Tool errors, in the static build
// opened from file://, and sends it: a good edit gets a result marked as
// differing from the pin, a number for the title a tool error, a malformed
// line a parse error; Reset brings the pinned request back. With
// -screenshots, it saves the edited exchange.
func (env *browserEnv) checkEditAndSend(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	b.visit(t, env.hosts[0].base+"tool-errors.html")
	const fig = "#t01-modern-tool-error"
	ex := fig + ` .exchange[data-request*="Nothing"]`
	// send edits the request and sends it; it returns the live reply's
	// outcome and text.
	send := func(t *testing.T, edit string) (outcome, reply string) {
		t.Helper()
		var ok bool
		b.eval(t, `(() => {
		const ex = document.querySelector('`+ex+`');
		ex.querySelector(".edit").click();
		const area = ex.querySelector(".editor textarea");
		area.value = (`+edit+`)(area.value);
		const old = ex.querySelector(".msg.live");
		if (old) { old.remove(); }
		ex.querySelector(".editor .send").click();
		return true;
	})()`, &ok)
		b.poll(t, `document.querySelector('`+ex+` .msg.live') !== null`)
		var res []string
		b.eval(t, `[document.querySelector('`+ex+` .msg.live').dataset.outcome, document.querySelector('`+ex+` .msg.live pre').textContent]`, &res)
		return res[0], res[1]
	}
	if outcome, reply := send(t, `v => v.replace("Nothing", "Dune")`); outcome != "result" || !strings.Contains(reply, `"text": "Frank Herbert"`) || strings.Contains(reply, "isError") {
		t.Errorf("Dune instead of Nothing: outcome %q, reply\n%s", outcome, reply)
	}
	var differs bool
	b.eval(t, `document.querySelector('`+ex+` .msg.live').classList.contains("differs") && document.querySelectorAll('`+ex+` .msg.live .line.changed').length > 0`, &differs)
	if !differs {
		t.Error("the reply to the edited request is not marked as differing from the pinned one")
	}
	b.audit(t, "tool-errors.html with an edited request and its reply", "")
	if *screenshots != "" {
		png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS(fig)))
		if err != nil {
			t.Fatal(err)
		}
		shot(t, *screenshots, "desktop-light-edit", png)
	}
	if outcome, reply := send(t, `v => v.replace('"title": "Dune"', '"title": 42')`); outcome != "toolError" || !strings.Contains(reply, "/title") {
		t.Errorf("a number for the title: outcome %q, reply\n%s", outcome, reply)
	}
	if outcome, reply := send(t, `v => v.slice(0, 20)`); outcome != "protocolError" || !strings.Contains(reply, "-32700") {
		t.Errorf("a malformed line: outcome %q, reply\n%s", outcome, reply)
	}
	var reset []bool
	b.eval(t, `(() => {
	const ex = document.querySelector('`+ex+`');
	ex.querySelector(".editor .reset").click();
	return [ex.querySelector(".editor") === null, ex.querySelector(".msg.live") === null, !ex.querySelector(".msg.req .code").hidden];
})()`, &reset)
	if !slices.Equal(reset, []bool{true, true, true}) {
		t.Errorf("after Reset, [no editor, no live reply, the pinned request shown] = %v", reset)
	}
	b.check(t, "editing tool-errors.html")
}

// checkLayout checks that no code is clipped at 1280 px, and that on a
// phone the link home shows, Copy buttons cover no code, and transcripts
// wrap their long lines, live replies too.
func (env *browserEnv) checkLayout(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	// At 1280 px, the code is not clipped while the page has room.
	b.viewport(t, 1280, 900)
	for _, page := range []string{"tool-errors.html", "overview.html", "resources.html", "inside-the-core.html"} {
		b.visit(t, env.url+"/"+page)
		var clipped []string
		b.eval(t, `[...document.querySelectorAll("article .code pre")].filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.split("\n").reduce((a, b) => a.length >= b.length ? a : b))`, &clipped)
		if len(clipped) > 0 {
			t.Errorf("%s at 1280 px: code clipped at its longest line:\n%s", page, strings.Join(clipped, "\n"))
		}
	}
	// On a phone: a link home, and Copy buttons that cover no code.
	b.viewport(t, 390, 844, chromedp.EmulateMobile)
	defer b.viewport(t, 1280, 900)
	b.visit(t, env.url+"/tool-errors.html")
	var home struct {
		Href    string
		Visible bool
	}
	b.eval(t, `(() => { const a = document.querySelector("a.brand"); const r = a.getBoundingClientRect(); return {href: a.href, visible: r.width > 0 && r.height > 0}; })()`, &home)
	if !home.Visible || home.Href != env.url+"/index.html" {
		t.Errorf("on a phone, the link home is %+v, want a visible link to index.html", home)
	}
	var covered []string
	b.eval(t, `[...document.querySelectorAll("article .code")].filter(c => c.querySelector(".copy")).filter(c => {
	const b = c.querySelector(".copy").getBoundingClientRect();
	const range = document.createRange();
	range.selectNodeContents(c.querySelector("pre .line .cl, pre code"));
	return [...range.getClientRects()].some(r => r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom);
}).map(c => c.querySelector("pre").textContent.split("\n")[0])`, &covered)
	if len(covered) > 0 {
		t.Errorf("on a phone, the Copy button covers the first line of:\n%s", strings.Join(covered, "\n"))
	}
	// A transcript wraps its long lines, live replies too: none is wider
	// than its box.
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#t01-modern-tool-error .run-button"))); err != nil {
		t.Fatal(err)
	}
	b.poll(t, `/\b(ok|bad)\b/.test(document.querySelector("#t01-modern-tool-error .run-status").className)`)
	var wide []string
	b.eval(t, `[...document.querySelectorAll(".transcript pre")].filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.split("\n").reduce((a, b) => a.length >= b.length ? a : b))`, &wide)
	if len(wide) > 0 {
		t.Errorf("on a phone, transcripts wider than the screen, at their longest line:\n%s", strings.Join(wide, "\n"))
	}
}

// checkScreenshots writes screenshots into the -screenshots folder, and is
// skipped without one: three pages, the search results and the phone
// menu, at desktop and phone width in the light and the dark scheme, and a
// page as printed.
func (env *browserEnv) checkScreenshots(t *testing.T) {
	t.Parallel()
	b := env.pool.get(t)
	dir := *screenshots
	if dir == "" {
		t.Skip("no -screenshots folder given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	type viewport struct {
		name          string
		width, height int64
		opts          []chromedp.EmulateViewportOption
	}
	for _, vp := range []viewport{{"desktop", 1280, 900, nil}, {"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}} {
		for _, scheme := range []string{"light", "dark"} {
			if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(vp.width, vp.height, vp.opts...)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			}); err != nil {
				t.Fatal(err)
			}
			for _, page := range []string{"index.html", "tool-errors.html", "recap.html"} {
				b.visit(t, env.url+"/"+page)
				if page == "tool-errors.html" {
					if err := chromedp.Do(b.ctx, chromedp.ScrollIntoView(chromedp.CSS("#wire"))); err != nil {
						t.Fatal(err)
					}
				}
				if page == "tool-errors.html" {
					if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS("#t01-modern-tool-error .run-button"))); err != nil {
						t.Fatal(err)
					}
					b.poll(t, `/\b(ok|bad)\b/.test(document.querySelector("#t01-modern-tool-error .run-status").className)`)
					if err := chromedp.Do(b.ctx, chromedp.ScrollIntoView(chromedp.CSS("#t01-modern-tool-error"))); err != nil {
						t.Fatal(err)
					}
				}
				png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				shot(t, dir, fmt.Sprintf("%s-%s-%s", vp.name, scheme, strings.TrimSuffix(page, ".html")), png)
			}
			// The page list: a menu on a phone, searchable everywhere.
			if vp.name == "phone" {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(".menu-toggle")), chromedp.WaitVisible(chromedp.CSS("#sidebar a"))); err != nil {
					t.Fatalf("the phone menu does not open: %v", err)
				}
			} else if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("#search-input"), "isError"),
				chromedp.WaitVisible(chromedp.CSS("#search-results a"))); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			shot(t, dir, fmt.Sprintf("%s-%s-%s", vp.name, scheme, map[bool]string{true: "menu", false: "search"}[vp.name == "phone"]), png)
		}
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	b.visit(t, env.url+"/protocol-errors.html")
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	shot(t, dir, "print-protocol-errors", png)
	b.check(t, "the screenshots' pages")
}

// checkLinks checks the links into the served site that the crawl
// subtests found (see linkSet.check); TestBrowser runs it after them.
func (env *browserEnv) checkLinks(t *testing.T) {
	env.links.check(t, env.url)
}

// startBrowser starts headless Chromium for t, for at most timeout, and
// returns its context, which ends with t, and the channel that says whether
// it started. It skips t where there is no Chromium, and in -short mode,
// and unless GUIDE_LONG is set: a browser test takes tens of seconds to
// minutes, a long check that .ci/run runs. Under the race detector, where
// the browser test keeps to a smoke test (see crawlParts), it runs, as in
// .ci/run's go test -race ./....
func startBrowser(t *testing.T, timeout time.Duration) (context.Context, <-chan error) {
	t.Helper()
	if os.Getenv("GUIDE_LONG") == "" && !raceEnabled {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	exe := findChromium()
	if exe == "" {
		t.Skip("no Chromium or Chrome on PATH: the browser test needs one (.ci/run installs Debian's chromium)")
	}
	if testing.Short() {
		t.Skip("the browser test is slow; skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// The subtests run side by side, each in a tab of its own: a tab in
		// the background must run as fast as one in front.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	// Start the browser while the caller builds its sites, and stop at once
	// if it does not start. A chromedp context whose browser failed to
	// start must not be used again: chromedp v0.23.0 then starts a second
	// browser on the same context, and when both have exited it closes the
	// context's "allocated" channel twice (panic: close of closed channel,
	// in ExecAllocator.Allocate). The test used to start the browser from
	// chromedp.Console, which yields that error to a goroutine that
	// dropped it, so a slow start on a busy machine panicked the next call.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	return ctx, started
}

// clickAndTime returns a script that clicks the Run button of the figure
// id and resolves to the milliseconds from the click until its status says
// how the run went.
func clickAndTime(id string) string {
	return `new Promise(resolve => {
		const status = document.querySelector("#` + id + ` .run-status");
		const start = performance.now();
		new MutationObserver((_, obs) => {
			if (/\b(ok|bad)\b/.test(status.className)) { obs.disconnect(); resolve(performance.now() - start); }
		}).observe(status, {attributes: true, childList: true, characterData: true, subtree: true});
		document.querySelector("#` + id + ` .run-button").click();
	})`
}

// shot writes a screenshot as dir/name.png.
func shot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
