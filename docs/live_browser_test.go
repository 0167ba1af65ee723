package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpbookshop/guide/internal/site"
)

// reloadTimeout is how long the live browser test waits for an open page
// to show an edit once the server has built it: the guide asks for a
// reload within a second of the build, and a busy machine gets slack.
// buildTimeout bounds the build itself, which takes the machine's time
// (several seconds under the race detector): it is not what is tested.
const (
	reloadTimeout = 5 * time.Second
	buildTimeout  = 2 * time.Minute
)

// TestLiveBrowser opens a page of a temporary copy of the guide served as
// go run ./docs serves it, and edits the page's English source: the page
// reloads by itself, where it was, and shows the edit; a broken source
// turns it into a readable error page, even on a phone, and its fix back
// into the page; a restarted server finds it again, reloading it only if
// a source changed meanwhile. The static build's pages open no connection.
func TestLiveBrowser(t *testing.T) {
	ctx, started := startBrowser(t, 3*time.Minute)
	root := copyGuide(t)
	compile := func(context.Context, string) (*site.Browser, error) { return testBrowser() }
	tl := startLive(t, root, "127.0.0.1:0", compile)
	if err := <-started; err != nil {
		t.Fatalf("starting the browser: %v", err)
	}
	b := newTabs(ctx, 1).get(t)
	// The errors the test causes on purpose: the error page comes with
	// status 500, and a page's stream fails to connect while its server is
	// down. Dropped before the tab's check, as the last cleanup but one.
	t.Cleanup(func() {
		b.con.drop(func(e string) bool { return strings.Contains(e, "status of 500") || strings.Contains(e, livePath) })
	})
	source := filepath.Join(root, "docs", "overview", "en.md")
	original, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}

	b.visit(t, tl.url+"/overview.html")
	var visible string
	b.eval(t, `document.visibilityState`, &visible)
	if visible != "visible" {
		t.Fatalf("the page's visibilityState is %q: it opens no event stream", visible)
	}
	b.pollWithin(t, `window.guideLiveEvents >= 1`, reloadTimeout)
	// Scrolled to the middle, and marked: a reload forgets the mark and
	// should keep the place.
	var y float64
	b.eval(t, `(() => { window.scrollTo(0, document.documentElement.scrollHeight / 2); window.liveMark = true; return window.scrollY; })()`, &y)

	const added = "A sentence added while the page is open."
	built := tl.edit(t, source, string(original)+"\n"+added+"\n")
	took := b.pollWithin(t, `!window.liveMark && document.readyState === "complete" && document.body.innerText.includes("`+added+`")`, reloadTimeout)
	t.Logf("from the save to the new build: %v; from the build to the reloaded page showing the edit: %v", built.Round(10*time.Millisecond), took.Round(10*time.Millisecond))
	var after float64
	b.eval(t, `window.scrollY`, &after)
	if after < y-1 || after > y+1 {
		t.Errorf("the page reloaded at %.0f px from the top, was at %.0f", after, y)
	}

	t.Run("broken and fixed", func(t *testing.T) {
		tl.edit(t, source, string(original)+"\n:::go chapters/01-tool-errors/main.go nothingByThatName\n")
		// Complete: the error page's stylesheet has loaded, so that what is
		// measured below is the styled page, not the bare text.
		b.pollWithin(t, `document.readyState === "complete" && document.body.classList.contains("build-failed")`, reloadTimeout)
		b.viewport(t, phone.width, phone.height, phone.opts...)
		var page struct {
			Text      string
			Fits      bool
			StyledPre bool
		}
		b.eval(t, `({text: document.body.innerText,
			fits: document.documentElement.scrollWidth <= window.innerWidth && [...document.querySelectorAll("pre")].every(p => p.scrollWidth <= p.clientWidth + 1),
			styledPre: getComputedStyle(document.querySelector("pre.build-error")).whiteSpace === "pre-wrap"})`, &page)
		for _, want := range []string{"overview/en.md", "nothingByThatName", "How to fix it"} {
			if !strings.Contains(page.Text, want) {
				t.Errorf("the error page does not say %q:\n%s", want, page.Text)
			}
		}
		if !page.Fits || !page.StyledPre {
			t.Errorf("on a phone, the error page is wider than the screen (fits=%v, wrapped=%v)", page.Fits, page.StyledPre)
		}
		b.viewport(t, desktop.width, desktop.height)
		tl.edit(t, source, string(original))
		b.pollWithin(t, `!document.body.classList.contains("build-failed") && document.readyState === "complete" && document.querySelector("article h1") !== null`, reloadTimeout)
	})

	t.Run("restart", func(t *testing.T) {
		addr := strings.TrimPrefix(tl.url, "http://")
		b.eval(t, `(() => { window.liveMark = window.guideLiveEvents; return true; })()`, new(bool))
		tl.shutdown(t)
		tl = startLive(t, root, addr, compile)
		// The page reconnects, hears of the same build, and stays.
		b.pollWithin(t, `window.liveMark !== undefined && window.guideLiveEvents > window.liveMark`, reloadTimeout)
		tl.shutdown(t)
		const meanwhile = "A sentence added while the server was down."
		writeSource(t, source, string(original)+"\n"+meanwhile+"\n")
		tl = startLive(t, root, addr, compile)
		took := b.pollWithin(t, `window.liveMark === undefined && document.readyState === "complete" && document.body.innerText.includes("`+meanwhile+`")`, reloadTimeout)
		t.Logf("from the restarted server's first build to the page reloaded: %v", took.Round(10*time.Millisecond))
	})

	t.Run("static", func(t *testing.T) {
		s, err := site.Build(config(root, nil))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := s.WriteDir(dir); err != nil {
			t.Fatal(err)
		}
		b.visit(t, "file://"+filepath.ToSlash(dir)+"/overview.html")
		var live []any
		b.eval(t, `[document.querySelector('meta[name="live-reload"]'), window.guideLiveEvents === undefined ? null : window.guideLiveEvents,
			...performance.getEntriesByType("resource").filter(e => !e.name.startsWith("file:")).map(e => e.name)]`, &live)
		if len(live) != 2 || live[0] != nil || live[1] != nil {
			t.Errorf("a static page listens for builds: [its meta element, events heard, requests] = %v", live)
		}
	})
}

// edit writes the source file and waits, at most buildTimeout, until the
// live server has published a new build; it returns how long that took.
func (tl *testLive) edit(t *testing.T, file, text string) time.Duration {
	t.Helper()
	before := tl.live.published()
	start := time.Now()
	writeSource(t, file, text)
	for tl.live.published() == before {
		if time.Since(start) > buildTimeout {
			t.Fatalf("the live server built nothing new within %v of an edit to %s:\n%s", buildTimeout, file, tl.log.String())
		}
		time.Sleep(pollInterval)
	}
	return time.Since(start)
}

// published returns the name of the build the server last told the pages
// of.
func (l *liveSite) published() string {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	return l.build
}

// pollWithin waits until expr is true, across navigations, for at most
// limit, and returns how long it took.
func (b *tab) pollWithin(t *testing.T, expr string, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 400)`))
			t.Fatalf("waiting %v for %s: %v\n%s", limit, expr, err, text)
		}
		time.Sleep(pollInterval)
	}
}

// drop forgets the console errors for which expected is true, which a
// test caused on purpose.
func (c *console) drop(expected func(string) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.errs[:0]
	for _, e := range c.errs {
		if !expected(e) {
			kept = append(kept, e)
		}
	}
	c.errs = kept
}
