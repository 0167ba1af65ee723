package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// tab is one tab of the browser test's browser, and the console errors its
// pages wrote.
type tab struct {
	ctx context.Context
	con console
	axe *axeAudit // nil: no accessibility check
}

// tabs lends the subtests, which run in parallel, tabs of one browser: as
// many as run at once, each opened once, since a tab costs a renderer's
// start.
type tabs struct {
	browser context.Context
	free    chan *tab
	axe     *axeAudit // the tabs' accessibility check; nil for none
}

// newTabs returns a pool of up to n tabs of the browser of ctx.
func newTabs(ctx context.Context, n int) *tabs {
	p := &tabs{browser: ctx, free: make(chan *tab, n)}
	for range n {
		p.free <- nil // a tab to open when first needed
	}
	return p
}

// get lends t a tab at desktop width, showing the screen's media, until t
// ends; then the console errors of its pages fail t.
func (p *tabs) get(t *testing.T) *tab {
	t.Helper()
	b := <-p.free
	t.Cleanup(func() {
		if b != nil {
			b.check(t, "the pages of "+t.Name())
		}
		p.free <- b
	})
	if b == nil {
		ctx, _ := chromedp.NewContext(p.browser) // closed with the browser
		if err := chromedp.Do(ctx); err != nil {
			t.Fatalf("opening a tab: %v", err)
		}
		// A tab behind the others still has the focus for its page: the
		// clipboard wants it.
		if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		b = &tab{ctx: ctx}
		b.con.watch(ctx)
	}
	b.axe = p.axe
	b.viewport(t, desktop.width, desktop.height)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	return b
}

// viewport is a width and height the tests look at pages in.
type viewport struct {
	name          string
	width, height int64
	opts          []chromedp.EmulateViewportOption
}

var (
	desktop = viewport{"desktop", 1280, 900, nil}
	phone   = viewport{"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}
)

// visit opens a page and waits for its body.
func (b *tab) visit(t *testing.T, url string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

// eval evaluates expr in the page, awaiting a promise, into v.
func (b *tab) eval(t *testing.T, expr string, v any) {
	t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[json.RawMessage](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal(got, v); err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
}

// poll waits until expr is true, across navigations.
func (b *tab) poll(t *testing.T, expr string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %v", expr, err)
		}
		time.Sleep(pollInterval)
	}
}

// audit runs axe-core on the page the tab shows, if the tab's pool has it,
// and fails t for each serious or critical violation; what names the page
// and its state. within, if not "", is a selector of the part to check.
func (b *tab) audit(t *testing.T, what, within string) {
	t.Helper()
	b.axe.check(t, b, what, within)
}

// viewport sets the tab's width and height.
func (b *tab) viewport(t *testing.T, width, height int64, opts ...chromedp.EmulateViewportOption) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, height, opts...)); err != nil {
		t.Fatal(err)
	}
}

// check fails t if the tab's pages wrote errors since the last check;
// what says where.
func (b *tab) check(t *testing.T, what string) {
	t.Helper()
	b.con.check(t, what)
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
				text := m.String()
				if m.URL != "" {
					text += " (" + m.URL + ")"
				}
				c.mu.Lock()
				c.errs = append(c.errs, text)
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
