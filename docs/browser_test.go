package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/mcpbookshop/guide/internal/site"
)

var screenshots = flag.String("screenshots", "", "write the browser test's screenshots into this `folder`")

// The browser test's limits: the whole test, and one wait in a page (the
// first Run builds a chapter).
const (
	browserTimeout = 3 * time.Minute
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
// translated from an older version so that it shows the banner.
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
	index := strings.Replace(string(docs["index/en.md"].Data), "---\n", "---\nsource: 000000000000\n", 1)
	docs["index/"+testLang+".md"] = &fstest.MapFile{Data: []byte(index)}
	return docs
}

// console collects the errors a page writes to its console.
type console struct {
	mu   sync.Mutex
	errs []string
}

// watch collects, in the background, the errors the pages of ctx's browser
// tab write to its console.
func (c *console) watch(ctx context.Context) {
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				c.mu.Lock()
				c.errs = append(c.errs, m.String())
				c.mu.Unlock()
			}
		}
	}()
}

// check fails t if a page wrote errors since the last check, and forgets
// them; what says where.
func (c *console) check(t *testing.T, what string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.errs) > 0 {
		t.Errorf("%s: console errors:\n%s", what, strings.Join(c.errs, "\n"))
	}
	c.errs = nil
}

// TestBrowser drives headless Chromium through the served guide.
func TestBrowser(t *testing.T) {
	exe := findChromium()
	if exe == "" {
		t.Skip("no Chromium or Chrome on PATH: the browser test needs one (.ci/run installs Debian's chromium)")
	}
	if testing.Short() {
		t.Skip("the browser test is slow; skipped in -short mode")
	}
	root, err := filepath.Abs(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(root, true)
	cfg.Docs = docsWithTestLanguage(t)
	s, err := site.Build(cfg)
	if err != nil {
		t.Fatalf("the guide does not build:\n%v", err)
	}
	runner := &site.Runner{Dir: root}
	defer runner.Close()
	srv := httptest.NewServer(site.Handler(s, runner))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	defer cancel()
	ctx, cancel = chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()
	var con console
	con.watch(ctx)

	// visit opens a page of the site and waits for its body.
	visit := func(t *testing.T, page string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+page), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
			t.Fatalf("%s: %v", page, err)
		}
	}
	// eval evaluates expr in the page, awaiting a promise, into v.
	eval := func(t *testing.T, expr string, v any) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
		if err := json.Unmarshal(got, v); err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
	}
	// poll waits until expr is true, across navigations.
	poll := func(t *testing.T, expr string) {
		t.Helper()
		deadline := time.Now().Add(waitTimeout)
		for {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
			if err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: %v", expr, err)
			}
			time.Sleep(pollInterval)
		}
	}

	t.Run("pages", func(t *testing.T) {
		var pages []string
		for name := range s.Files {
			if strings.HasSuffix(name, ".html") {
				pages = append(pages, name)
			}
		}
		slices.Sort(pages)
		links := make(map[string]bool)
		for _, page := range pages {
			visit(t, page)
			var broken []string
			eval(t, `[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)`, &broken)
			if len(broken) > 0 {
				t.Errorf("%s: broken images %v", page, broken)
			}
			var hrefs []string
			eval(t, `[...document.querySelectorAll("a[href], link[href], script[src]")].map(e => e.href || e.src)`, &hrefs)
			for _, h := range hrefs {
				links[h] = true
			}
			var lang string
			eval(t, `document.documentElement.lang`, &lang)
			want, _, translated := strings.Cut(page, "/")
			if !translated {
				want = site.SourceLanguage
			}
			if lang != want {
				t.Errorf("%s: lang=%q, want %q", page, lang, want)
			}
			con.check(t, page)
		}
		checked := 0
		for link := range links {
			u, err := url.Parse(link)
			if err != nil || !strings.HasPrefix(link, srv.URL) {
				continue
			}
			checked++
			res, err := http.Get(srv.URL + u.Path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("broken link %s: %s", link, res.Status)
			} else if u.Fragment != "" && !strings.Contains(string(body), `id="`+u.Fragment+`"`) {
				t.Errorf("broken anchor %s", link)
			}
		}
		t.Logf("%d pages loaded, %d distinct links checked", len(pages), checked)
	})

	t.Run("search", func(t *testing.T) {
		visit(t, "index.html")
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#search-input"), "isError"),
			chromedp.WaitVisible(chromedp.CSS("#search-results a"))); err != nil {
			t.Fatal(err)
		}
		var hits []string
		eval(t, `[...document.querySelectorAll("#search-results a")].map(a => a.innerText)`, &hits)
		if len(hits) == 0 || !strings.Contains(strings.Join(hits, "\n"), "isError") {
			t.Fatalf("searching isError found %q", hits)
		}
		var first string
		eval(t, `document.querySelector("#search-results a").href`, &first)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#search-results a"))); err != nil {
			t.Fatal(err)
		}
		poll(t, `location.href === "`+first+`" && document.readyState === "complete" && document.body.innerText.includes("isError")`)
		t.Logf("search for isError: %d results, the first: %s", len(hits), strings.Join(strings.Fields(hits[0]), " "))
	})

	t.Run("static site from file", func(t *testing.T) {
		static, err := site.Build(config(root, false))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := static.WriteDir(dir); err != nil {
			t.Fatal(err)
		}
		page := "file://" + filepath.ToSlash(filepath.Join(dir, "tool-errors.html"))
		if err := chromedp.Do(ctx, chromedp.Navigate(page),
			chromedp.SendKeys(chromedp.CSS("#search-input"), "isError"),
			chromedp.WaitVisible(chromedp.CSS("#search-results a"))); err != nil {
			t.Fatal(err)
		}
		var notes, buttons int
		eval(t, `document.querySelectorAll(".run-note").length`, &notes)
		eval(t, `document.querySelectorAll(".run-button").length`, &buttons)
		if notes == 0 || buttons != 0 {
			t.Errorf("the static page has %d run notes and %d Run buttons, want notes and no buttons", notes, buttons)
		}
		con.check(t, "the static site")
	})

	t.Run("language switcher", func(t *testing.T) {
		visit(t, "index.html")
		for _, lang := range []string{testLang, site.SourceLanguage} {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("details.langs summary")),
				chromedp.Click(chromedp.CSS(`details.langs a[hreflang="`+lang+`"]`), chromedp.NodeVisible)); err != nil {
				t.Fatal(err)
			}
			poll(t, `document.documentElement.lang === "`+lang+`" && document.readyState === "complete"`)
			var banner bool
			eval(t, `document.querySelector(".banner") !== null`, &banner)
			if banner != (lang == testLang) {
				t.Errorf("in %s, the behind banner shown=%v", lang, banner)
			}
		}
	})

	t.Run("copy button", func(t *testing.T) {
		visit(t, "tool-errors.html")
		_, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "clipboard-read"},
			Setting:    browser.PermissionSettingGranted,
			Origin:     srv.URL,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".code .copy"))); err != nil {
			t.Fatal(err)
		}
		poll(t, `document.querySelector(".code .copy").dataset.copiedText !== undefined`)
		var want, got string
		eval(t, `document.querySelector(".code pre").innerText.replace(/\n$/, "")`, &want)
		eval(t, `navigator.clipboard.readText()`, &got)
		if got != want || !strings.Contains(got, "func getAuthor") {
			t.Errorf("the clipboard holds %q,\nwant the first code block, %q", got, want)
		}
	})

	// Run buttons: a tool error, and a request cancelled in flight, whose
	// live panel must say why it has no response.
	for _, run := range []struct{ name, page, fig, want string }{
		{"run button", "tool-errors.html", "#t01-modern-tool-error", `"isError": true`},
		{"run button, cancelled request", "handler-failures.html", "#t04-modern-cancelled", "the request was cancelled"},
	} {
		t.Run(run.name, func(t *testing.T) {
			visit(t, run.page)
			fig := run.fig
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fig+" .run-button"))); err != nil {
				t.Fatal(err)
			}
			poll(t, `/\b(ok|bad)\b/.test(document.querySelector("`+fig+` .run-status").className)`)
			var res struct {
				Status string
				Pairs  [][2]string
			}
			eval(t, `({
				status: document.querySelector("`+fig+` .run-status").className,
				pairs: [...document.querySelectorAll("`+fig+` .exchange")].map(ex => [
					ex.querySelector(".msg.res").innerText.split("\n").slice(1).join("\n"),
					ex.querySelector(".msg.live").innerText.split("\n").slice(1).join("\n")])
			})`, &res)
			if !strings.Contains(res.Status, "ok") {
				t.Errorf("run status %q, want ok", res.Status)
			}
			shown := false
			for i, p := range res.Pairs {
				if p[0] != p[1] {
					t.Errorf("exchange %d: live response\n%s\nwant the pinned\n%s", i, p[1], p[0])
				}
				shown = shown || strings.Contains(p[0], run.want)
			}
			if !shown {
				t.Errorf("no exchange shows %q: %q", run.want, res.Pairs)
			}
			con.check(t, run.page+" after Run")
			if *screenshots != "" {
				png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(fig)))
				if err != nil {
					t.Fatal(err)
				}
				shot(t, *screenshots, "desktop-light-"+strings.TrimPrefix(fig, "#"), png)
			}
		})
	}

	t.Run("screenshots", func(t *testing.T) {
		dir := *screenshots
		if dir == "" {
			dir = t.TempDir()
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
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.width, vp.height, vp.opts...)); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
				}); err != nil {
					t.Fatal(err)
				}
				for _, page := range []string{"index.html", "tool-errors.html", "recap.html"} {
					visit(t, page)
					if page == "tool-errors.html" {
						if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS("#wire"))); err != nil {
							t.Fatal(err)
						}
					}
					png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
					if err != nil {
						t.Fatal(err)
					}
					shot(t, dir, fmt.Sprintf("%s-%s-%s", vp.name, scheme, strings.TrimSuffix(page, ".html")), png)
				}
				// The page list: a menu on a phone, searchable everywhere.
				if vp.name == "phone" {
					if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".menu-toggle")), chromedp.WaitVisible(chromedp.CSS("#sidebar a"))); err != nil {
						t.Fatalf("the phone menu does not open: %v", err)
					}
				} else if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#search-input"), "isError"),
					chromedp.WaitVisible(chromedp.CSS("#search-results a"))); err != nil {
					t.Fatal(err)
				}
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				shot(t, dir, fmt.Sprintf("%s-%s-%s", vp.name, scheme, map[bool]string{true: "menu", false: "search"}[vp.name == "phone"]), png)
			}
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		visit(t, "protocol-errors.html")
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		shot(t, dir, "print-protocol-errors", png)
		con.check(t, "the screenshots' pages")
	})
}

// shot writes a screenshot as dir/name.png.
func shot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
