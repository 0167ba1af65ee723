package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// maxTabs is how many times tabTo presses Tab looking for an element: more
// than the longest page has stops.
const maxTabs = 600

// press sends keys as a keyboard does: for each, key down, its character if
// it has one, key up; mods are modifiers held meanwhile.
func (b *tab) press(t *testing.T, keys string, mods ...chromedp.Modifier) {
	t.Helper()
	var opts []chromedp.KeyOption
	if len(mods) > 0 {
		opts = append(opts, chromedp.KeyModifiers(mods...))
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(keys, opts...)); err != nil {
		t.Fatalf("pressing %q: %v", keys, err)
	}
}

// focused describes the element that has the focus, for messages.
const focused = `(() => {
	const e = document.activeElement;
	if (!e || e === document.body) { return "nothing"; }
	return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") +
		" " + JSON.stringify((e.innerText || e.value || e.getAttribute("aria-label") || "").trim().slice(0, 40));
})()`

// tabTo presses Tab until the element with the focus matches selector, and
// checks that it shows the focus (see showsFocus). It fails naming the last
// elements passed if none does within maxTabs presses.
func (b *tab) tabTo(t *testing.T, selector string) {
	t.Helper()
	sel, _ := json.Marshal(selector)
	var passed []string
	for range maxTabs {
		b.press(t, kb.Tab)
		var at struct {
			Match bool
			What  string
		}
		b.eval(t, `({match: document.activeElement !== null && document.activeElement.matches(`+string(sel)+`), what: `+focused+`})`, &at)
		if at.Match {
			b.showsFocus(t, selector)
			return
		}
		if len(passed) == 8 {
			passed = passed[1:]
		}
		passed = append(passed, at.What)
	}
	t.Fatalf("%d presses of Tab do not reach %s; the last went through:\n%s", maxTabs, selector, strings.Join(passed, "\n"))
}

// showsFocus waits until the element with the focus, which must match
// selector, is on screen, opaque, matches :focus-visible and draws a ring
// (an outline or a box shadow); it fails saying which is not so.
func (b *tab) showsFocus(t *testing.T, selector string) {
	t.Helper()
	sel, _ := json.Marshal(selector)
	check := `(() => {
		const e = document.activeElement;
		if (!e || !e.matches(` + string(sel) + `)) { return "the focus is on " + ` + focused + `; }
		const s = getComputedStyle(e), r = e.getBoundingClientRect();
		let opacity = 1;
		for (let x = e; x; x = x.parentElement) { opacity *= parseFloat(getComputedStyle(x).opacity); }
		const ring = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0 && s.outlineColor !== "rgba(0, 0, 0, 0)" || s.boxShadow !== "none";
		const problems = [];
		if (!e.matches(":focus-visible")) { problems.push("not :focus-visible"); }
		if (!ring) { problems.push("no outline nor box shadow (outline " + s.outline + ")"); }
		if (opacity < 0.9) { problems.push("opacity " + opacity); }
		if (r.width === 0 || r.height === 0 || r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) {
			problems.push("off screen at " + [r.left, r.top, r.width, r.height].map(Math.round).join(","));
		}
		return problems.join("; ");
	})()`
	// The Copy button fades in as it takes the focus: wait for it.
	deadline := time.Now().Add(waitTimeout)
	for {
		var problem string
		b.eval(t, check, &problem)
		if problem == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s has the focus but does not show it: %s", selector, problem)
			return
		}
		time.Sleep(pollInterval)
	}
}

// testKeyboard walks the served site at base with the keyboard alone, real
// key events: Tab reaches each control a mouse can use, with a visible
// focus; Enter or Space works it; Escape closes what it opened. The skip
// link; the search box, its results and opening one; the language list;
// the table of contents, folded in the page and beside it; Copy, Run,
// Edit, Send and Reset; on a phone the page menu, and a code block or
// table that scrolls sideways, scrolled with the arrow keys.
func testKeyboard(t *testing.T, b *tab, base string) {
	page := base + "/tool-errors.html"
	const fig = "#t01-modern-tool-error"
	ex := fig + ` .exchange[data-request*="Nothing"]`
	b.viewport(t, desktop.width, desktop.height)

	t.Run("skip link", func(t *testing.T) {
		b.visit(t, page)
		b.press(t, kb.Tab)
		b.showsFocus(t, "a.skip")
		b.press(t, kb.Enter)
		b.poll(t, `location.hash === "#content"`)
	})

	t.Run("search", func(t *testing.T) {
		b.visit(t, page)
		b.tabTo(t, "#search-input")
		b.press(t, "isError")
		b.poll(t, `!document.getElementById("search-results").hidden && document.querySelector("#search-results a") !== null`)
		b.press(t, kb.Tab)
		b.showsFocus(t, "#search-results li:first-child a")
		b.press(t, kb.Escape)
		b.poll(t, `document.getElementById("search-results").hidden && document.activeElement.id === "search-input"`)
		b.showsFocus(t, "#search-input")
		// Escape in the box empties it; typed again, the first result
		// opens with Enter from the list.
		b.press(t, kb.Escape)
		b.poll(t, `document.getElementById("search-input").value === ""`)
		b.press(t, "isError")
		b.poll(t, `document.querySelector("#search-results a") !== null`)
		var first string
		b.eval(t, `document.querySelector("#search-results a").href`, &first)
		b.press(t, kb.Tab)
		b.showsFocus(t, "#search-results li:first-child a")
		b.press(t, kb.Enter)
		b.poll(t, `location.href === `+jsString(first)+` && document.readyState === "complete"`)
	})

	t.Run("language list", func(t *testing.T) {
		b.visit(t, page)
		b.tabTo(t, "details.langs summary")
		b.press(t, kb.Enter)
		b.poll(t, `document.querySelector("details.langs").open`)
		b.press(t, kb.Tab)
		b.showsFocus(t, "details.langs li:first-child a")
		b.press(t, kb.Escape)
		b.poll(t, `!document.querySelector("details.langs").open && document.activeElement === document.querySelector("details.langs summary")`)
		b.press(t, " ")
		b.poll(t, `document.querySelector("details.langs").open`)
		b.tabTo(t, `details.langs a[hreflang="ja"]`)
		b.press(t, kb.Enter)
		b.poll(t, `document.documentElement.lang === "ja" && location.pathname.endsWith("/ja/tool-errors.html") && document.readyState === "complete"`)
	})

	t.Run("table of contents", func(t *testing.T) {
		// Below 90rem the table of contents is folded into the page.
		b.visit(t, page)
		b.tabTo(t, ".toc-inline summary")
		b.press(t, kb.Enter)
		b.poll(t, `document.querySelector(".toc-inline").open`)
		b.tabTo(t, ".toc-inline li:nth-child(2) a")
		var want string
		b.eval(t, `document.activeElement.hash`, &want)
		b.press(t, kb.Enter)
		b.poll(t, `location.hash === `+jsString(want))
		// Wider, it stands beside the page, after the article in the
		// Tab order.
		b.viewport(t, 1600, desktop.height)
		defer b.viewport(t, desktop.width, desktop.height)
		b.visit(t, page)
		b.tabTo(t, ".toc li:nth-child(3) a")
		b.eval(t, `document.activeElement.hash`, &want)
		b.press(t, kb.Enter)
		b.poll(t, `location.hash === `+jsString(want))
	})

	t.Run("copy, run, edit, send, share and reset", func(t *testing.T) {
		b.visit(t, page)
		_, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "clipboard-read"},
			Setting:    browser.PermissionSettingGranted,
			Origin:     base,
		})
		if err != nil {
			t.Fatal(err)
		}
		b.tabTo(t, ".code .copy")
		b.press(t, kb.Enter)
		b.poll(t, `document.activeElement.dataset.copiedText !== undefined`)

		b.tabTo(t, fig+" .run-button")
		b.press(t, kb.Enter)
		b.poll(t, `/\bok\b/.test(document.querySelector("`+fig+` .run-status").className)`)

		b.tabTo(t, ex+" .edit")
		b.press(t, kb.Enter)
		b.poll(t, `document.activeElement === document.querySelector('`+ex+` .editor textarea')`)
		b.showsFocus(t, ex+" .editor textarea")
		b.press(t, kb.Tab)
		b.showsFocus(t, ex+" .editor .send")
		b.press(t, " ")
		b.poll(t, `document.querySelector('`+ex+` .msg.live') !== null && !document.querySelector("`+fig+`").classList.contains("busy")`)
		b.press(t, kb.Tab)
		b.showsFocus(t, ex+" .editor .share")
		b.press(t, kb.Tab)
		b.showsFocus(t, ex+" .editor .reset")
		b.press(t, kb.Enter)
		b.poll(t, `document.querySelector('`+ex+` .editor') === null && document.querySelector('`+ex+` .msg.live') === null`)
		// The focus goes back to the Edit button the editor came from.
		b.showsFocus(t, ex+" .edit")
	})

	t.Run("phone", func(t *testing.T) {
		b.viewport(t, phone.width, phone.height, phone.opts...)
		defer b.viewport(t, desktop.width, desktop.height)
		b.visit(t, page)
		b.tabTo(t, ".menu-toggle")
		b.press(t, kb.Enter)
		b.poll(t, `document.getElementById("sidebar").classList.contains("open") && document.querySelector(".menu-toggle").getAttribute("aria-expanded") === "true"`)
		b.tabTo(t, "#sidebar a")
		b.press(t, kb.Escape)
		b.poll(t, `!document.getElementById("sidebar").classList.contains("open") && document.activeElement === document.querySelector(".menu-toggle")`)

		// A code block that scrolls sideways takes the focus, and the
		// arrow keys scroll it.
		b.tabTo(t, `article pre[tabindex="0"][role="region"]`)
		var name string
		b.eval(t, `document.activeElement.getAttribute("aria-label")`, &name)
		if name == "" {
			t.Error("the code block that scrolls has no name")
		}
		b.press(t, kb.ArrowRight)
		b.poll(t, `document.activeElement.scrollLeft > 0`)
		// At desktop width nothing of this page scrolls sideways, and no
		// code block is a stop of the Tab order.
		b.viewport(t, desktop.width, desktop.height)
		b.poll(t, `document.querySelectorAll("article [tabindex]").length === 0`)
		b.viewport(t, phone.width, phone.height, phone.opts...)
		b.poll(t, `document.querySelectorAll("article pre[tabindex]").length > 0`)

		// So does a table.
		b.visit(t, base+"/errors.html")
		b.tabTo(t, `article :is(.table-wrap, table)[tabindex="0"]`)
		b.press(t, kb.ArrowRight)
		b.poll(t, `document.activeElement.scrollLeft > 0`)
	})
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
