package main

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The shared request's address, as site.js writes and reads it:
// #share:<transcript id>:<exchange number, from 1>:<base64url of the text>.
const (
	shareFigure = "t01-modern-tool-error"
	shareLimit  = 16 * 1024 // bytes of request text
)

// shareFragment returns the fragment that shares text as the request of
// exchange n (from 1) of the transcript id.
func shareFragment(id string, n int, text string) string {
	return "#share:" + id + ":" + strconv.Itoa(n) + ":" + base64.RawURLEncoding.EncodeToString([]byte(text))
}

// hostilePayloads are shared texts that would run script if the page put
// them anywhere but a text area's value or escaped text.
var hostilePayloads = []string{
	`<img src=x onerror=alert(1)>`,
	`</textarea><script>window.pwned=1</script>`,
}

// shareTab is a tab opening share addresses of Tool errors at base, and
// counting the JavaScript dialogs its pages open (and closes them).
type shareTab struct {
	*tab
	page string // Tool errors' address, without a fragment
	ex   string // the selector of the shared exchange
	n    int    // its number, from 1
	ui   map[string]string

	mu      sync.Mutex
	dialogs []string
}

// checkShare shares an edited request of Tool errors opened from base, and
// opens share addresses (see shareTab's methods for what each checks):
// the Share button's address, opened in a fresh page, fills in the edited
// text and runs nothing until Send; hostile texts stay text; a text past
// the limit, a malformed one and one for a transcript the page lacks say
// so and fill in nothing.
func (env *browserEnv) checkShare(t *testing.T, base string, clipboard bool) {
	t.Parallel()
	b := env.pool.get(t)
	s := &shareTab{tab: b, page: base + "tool-errors.html", ex: "#" + shareFigure + ` .exchange[data-request*="Nothing"]`, ui: env.ui[langOf("tool-errors.html")]}
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	closing := make(chan struct{}, 8)
	go func() {
		for range closing {
			// Errors here mean the page is gone: nothing left to close.
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	defer close(closing)
	if err := chromedp.Listen(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			s.mu.Lock()
			s.dialogs = append(s.dialogs, string(d.Type)+": "+d.Message)
			s.mu.Unlock()
			select {
			case closing <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	b.visit(t, s.page)
	b.eval(t, `[...document.querySelectorAll("#`+shareFigure+` .exchange")].indexOf(document.querySelector('`+s.ex+`')) + 1`, &s.n)
	if s.n == 0 {
		t.Fatalf("tool-errors.html: no exchange %s", s.ex)
	}
	if clipboard {
		if _, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "clipboard-read"},
			Setting:    browser.PermissionSettingGranted,
			Origin:     strings.TrimSuffix(base, "/"),
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("round trip", func(t *testing.T) { s.roundTrip(t, clipboard) })
	t.Run("hostile", s.hostile)
	t.Run("refused", s.refused)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.dialogs) > 0 {
		t.Errorf("the pages opened dialogs: %q", s.dialogs)
	}
	b.check(t, "sharing from "+base)
}

// open opens the address in a fresh page: from another page, since one
// that differs only in its fragment would not load again.
func (s *shareTab) open(t *testing.T, address string) {
	t.Helper()
	s.visit(t, "about:blank")
	s.visit(t, address)
}

// editor waits for the shared exchange's editor and returns its text, and
// checks that nothing ran: no live reply, no run status, no module
// loaded.
func (s *shareTab) editor(t *testing.T) string {
	t.Helper()
	s.poll(t, `document.querySelector('`+s.ex+` .editor textarea') !== null`)
	var got struct {
		Value, Note, Status, Focused, DescribedBy string
		Live, Busy, Loaded                        bool
	}
	s.eval(t, `(() => {
	const area = document.querySelector('`+s.ex+` .editor textarea'), fig = document.getElementById("`+shareFigure+`");
	const note = document.querySelector('`+s.ex+` .editor .share-note');
	return {
		value: area.value, note: note ? note.textContent : "", describedBy: note && area.getAttribute("aria-describedby") === note.id ? "yes" : "no",
		status: fig.querySelector(".run-status").className + ":" + fig.querySelector(".run-status").textContent,
		focused: document.activeElement === area ? "yes" : (document.activeElement || {}).tagName || "",
		live: document.querySelector(".msg.live") !== null, busy: fig.classList.contains("busy"),
		// From file:// the resource timings leave the scripts out.
		loaded: document.querySelector('script[src*="assets/run/"]') !== null || performance.getEntriesByType("resource").some(e => e.name.includes("/assets/run/")),
	};
})()`, &got)
	if got.Live || got.Busy || got.Loaded || got.Status != "run-status:" {
		t.Errorf("a shared request ran on load: live reply %v, busy %v, module loaded %v, run status %q", got.Live, got.Busy, got.Loaded, got.Status)
	}
	if got.Note != s.ui["shareOpened"] || got.DescribedBy != "yes" {
		t.Errorf("the editor says %q (the text area described by it: %s), want %q", got.Note, got.DescribedBy, s.ui["shareOpened"])
	}
	if got.Focused != "yes" {
		t.Errorf("the focus is on %s, want the shared request's text area", got.Focused)
	}
	return got.Value
}

// send clicks the editor's Send and returns the live reply's outcome and
// text.
func (s *shareTab) send(t *testing.T) (outcome, reply string) {
	t.Helper()
	if err := chromedp.Do(s.ctx, chromedp.Click(chromedp.CSS(s.ex+" .editor .send"))); err != nil {
		t.Fatal(err)
	}
	s.poll(t, `document.querySelector('`+s.ex+` .msg.live') !== null && !document.getElementById("`+shareFigure+`").classList.contains("busy")`)
	var res []string
	s.eval(t, `[document.querySelector('`+s.ex+` .msg.live').dataset.outcome, document.querySelector('`+s.ex+` .msg.live pre').textContent]`, &res)
	return res[0], res[1]
}

// roundTrip edits the request, clicks Share, and opens the address it
// gives in a fresh page: the editor holds the edited text, focused, and
// nothing has run; Send gets its reply. With clipboard, the clipboard
// must hold the address; without, it may offer the address in a field.
// Share refuses a text past the limit.
func (s *shareTab) roundTrip(t *testing.T, clipboard bool) {
	s.visit(t, s.page)
	// Non-ASCII text, so that the link carries UTF-8, and a last line
	// the pretty-printer would not write, so that the text is the
	// reader's as typed.
	const title = "Dune — Der Wüstenplanet ✓"
	var edited string
	s.eval(t, `(() => {
	const ex = document.querySelector('`+s.ex+`');
	ex.querySelector(".edit").click();
	const area = ex.querySelector(".editor textarea");
	area.value = area.value.replace("Nothing", `+jsString(title)+`) + "\n";
	return area.value;
})()`, &edited)
	// Without a clipboard to read, the test takes it away: Share must
	// then offer the address in a field, focused and selected.
	if !clipboard {
		s.eval(t, `(navigator.clipboard.writeText = () => Promise.reject(new Error("no clipboard in this test")), true)`, new(bool))
	}
	if err := chromedp.Do(s.ctx, chromedp.Click(chromedp.CSS(s.ex+" .editor .share"))); err != nil {
		t.Fatal(err)
	}
	s.poll(t, `document.querySelector('`+s.ex+` .editor .share-note') !== null`)
	var shared struct {
		Address, Note, Kind, Field string
		Selected                   bool
	}
	s.eval(t, `(() => {
	const note = document.querySelector('`+s.ex+` .editor .share-note'), field = note.querySelector("input");
	return {address: location.href, note: note.textContent, kind: note.className, field: field ? field.value : "",
		selected: !!field && document.activeElement === field && field.selectionStart === 0 && field.selectionEnd === field.value.length};
})()`, &shared)
	want := s.page + shareFragment(shareFigure, s.n, edited)
	if shared.Address != want {
		t.Fatalf("after Share, the address is\n%s\nwant\n%s", shared.Address, want)
	}
	if clipboard {
		var got string
		s.eval(t, `navigator.clipboard.readText()`, &got)
		if shared.Note != s.ui["shareCopied"] || shared.Kind != "share-note ok" || got != want {
			t.Errorf("after Share, the editor says %q (%s), the clipboard holds\n%s\nwant %q and the address\n%s", shared.Note, shared.Kind, got, s.ui["shareCopied"], want)
		}
	} else if shared.Note != s.ui["shareCopy"] || shared.Field != want || !shared.Selected {
		t.Errorf("after Share without a clipboard, the editor says %q with the field %q (focused and selected: %v); want %q, and the address selected in the field",
			shared.Note, shared.Field, shared.Selected, s.ui["shareCopy"])
	}
	s.audit(t, "tool-errors.html with a request shared", "")

	s.open(t, want)
	if got := s.editor(t); got != edited {
		t.Errorf("the shared address opens the editor with\n%q\nwant the edited text\n%q", got, edited)
	}
	s.audit(t, "tool-errors.html opened from a shared address", "")
	// The catalog has no such book: the tool error quotes the title, as
	// the server read it.
	if outcome, reply := s.send(t); outcome != "toolError" || !strings.Contains(reply, "No book titled '"+title+"'") {
		t.Errorf("sending the shared request: outcome %q, reply\n%s\nwant a tool error that quotes %q", outcome, reply, title)
	}

	// Share refuses a text past the limit, and leaves the address alone.
	var refused struct{ Note, Kind, Address string }
	s.eval(t, `(() => {
	const area = document.querySelector('`+s.ex+` .editor textarea');
	area.value = "x".repeat(`+strconv.Itoa(shareLimit+1)+`);
	document.querySelector('`+s.ex+` .editor .share').click();
	const note = document.querySelector('`+s.ex+` .editor .share-note');
	return {note: note.textContent, kind: note.className, address: location.href};
})()`, &refused)
	if wantNote := strings.Replace(s.ui["shareTooLongToShare"], "%s", "16", 1); refused.Note != wantNote || refused.Kind != "share-note bad" || refused.Address != want {
		t.Errorf("sharing %d bytes: the editor says %q (%s), the address is %s; want %q and the address unchanged", shareLimit+1, refused.Note, refused.Kind, refused.Address, wantNote)
	}
}

// hostile opens addresses that share script as text, alone and as the
// title of the request: each must stay the text area's value, and after
// Send the reply's escaped text, with no element, no script run, no
// dialog and no image loaded from it.
func (s *shareTab) hostile(t *testing.T) {
	var pinned string
	s.visit(t, s.page)
	s.eval(t, `document.querySelector('`+s.ex+`').dataset.request`, &pinned)
	for _, payload := range hostilePayloads {
		asTitle := strings.Replace(pinned, "Nothing", payload, 1)
		for _, text := range []string{payload, asTitle} {
			s.open(t, s.page+shareFragment(shareFigure, s.n, text))
			if got := s.editor(t); got != text {
				t.Errorf("the shared address opens the editor with\n%q\nwant\n%q", got, text)
			}
			s.harmless(t, payload, "on load")
			if text == asTitle {
				outcome, reply := s.send(t)
				if outcome != "toolError" || !strings.Contains(reply, payload) {
					t.Errorf("sending %s: outcome %q, reply\n%s\nwant a tool error that quotes the title", text, outcome, reply)
				}
				s.harmless(t, payload, "after Send")
			}
		}
	}
	s.audit(t, "tool-errors.html with a hostile request sent", "")
}

// harmless checks that the page holds payload only as text.
func (s *shareTab) harmless(t *testing.T, payload, when string) {
	t.Helper()
	var found []string
	s.eval(t, `(() => {
	const found = [];
	if (window.pwned !== undefined) { found.push("window.pwned is " + window.pwned); }
	document.querySelectorAll("img").forEach(i => { if (i.getAttribute("src") === "x") { found.push("an img with src=x"); } });
	document.querySelectorAll("*").forEach(e => { if (e.hasAttribute("onerror")) { found.push(e.tagName + " with onerror"); } });
	document.querySelectorAll("script").forEach(e => { if (e.textContent.includes("pwned")) { found.push("a script that sets pwned"); } });
	const html = document.documentElement.outerHTML;
	for (const s of ["<img src=x", "<script>window.pwned", "</textarea><script>"]) { if (html.includes(s)) { found.push("the markup holds " + s); } }
	if (performance.getEntriesByType("resource").some(e => /\/x$/.test(e.name))) { found.push("an image loaded from x"); }
	return found;
})()`, &found)
	if len(found) > 0 {
		t.Errorf("sharing %s, %s: %s", payload, when, strings.Join(found, "; "))
	}
}

// refused opens addresses the page must refuse: each shows its message
// where it says, and fills in no editor.
func (s *shareTab) refused(t *testing.T) {
	malformed := s.ui["shareMalformed"]
	for _, c := range []struct {
		name, fragment, want string
		beforeFigure         bool // else after the page's title
	}{
		{"a text past the limit", shareFragment(shareFigure, s.n, strings.Repeat("x", shareLimit+1)), strings.Replace(s.ui["shareTooLong"], "%s", "16", 1), true},
		{"bad base64url", "#share:" + shareFigure + ":" + strconv.Itoa(s.n) + ":not*base64!", malformed, true},
		{"cut short", "#share:" + shareFigure + ":" + strconv.Itoa(s.n) + ":e", malformed, true},
		{"not UTF-8", "#share:" + shareFigure + ":" + strconv.Itoa(s.n) + ":" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xfe, '{'}), malformed, true},
		{"an exchange the transcript lacks", shareFragment(shareFigure, 99, "{}"), malformed, true},
		{"no exchange number", "#share:" + shareFigure + ":" + base64.RawURLEncoding.EncodeToString([]byte("{}")), malformed, true},
		{"a transcript the page lacks", shareFragment("t99-nowhere", 1, "{}"), strings.Replace(s.ui["shareUnknown"], "%s", "t99-nowhere", 1), false},
	} {
		s.open(t, s.page+c.fragment)
		s.poll(t, `document.querySelector(".share-note") !== null`)
		var got struct {
			Note, Kind string
			Where      string
			Editors    int
		}
		s.eval(t, `(() => {
	const note = document.querySelector(".share-note"), fig = document.getElementById("`+shareFigure+`");
	return {
		note: note.textContent, kind: note.className, editors: document.querySelectorAll(".editor").length,
		where: note.nextElementSibling === fig ? "before the figure" : note.previousElementSibling === document.querySelector("article h1") ? "after the title" : "elsewhere",
	};
})()`, &got)
		where := map[bool]string{true: "before the figure", false: "after the title"}[c.beforeFigure]
		if got.Note != c.want || got.Kind != "share-note bad" || got.Where != where || got.Editors != 0 {
			t.Errorf("%s (%s): the page says %q (%s), %s, with %d editors open; want %q %s, and none open",
				c.name, c.fragment[:min(len(c.fragment), 60)], got.Note, got.Kind, got.Where, got.Editors, c.want, where)
		}
	}
	s.audit(t, "tool-errors.html refusing a shared address", "")

	// The largest text a link carries opens.
	text := strings.Repeat("x", shareLimit)
	s.open(t, s.page+shareFragment(shareFigure, s.n, text))
	if got := s.editor(t); got != text {
		t.Errorf("a shared text of %d bytes opens as %d bytes", len(text), len(got))
	}
}

// shareHost is a place the share subtests open Tool errors from; the
// browser lets the test read the clipboard of one with clipboard.
type shareHost struct {
	name, base string // base ends in a slash
	clipboard  bool
}

// shareHosts returns where TestBrowser shares requests from: the served
// site, whose clipboard the test reads, and the static build from file://.
func (env *browserEnv) shareHosts() []shareHost {
	return []shareHost{
		{"the served site", env.url + "/", true},
		{env.hosts[0].name, env.hosts[0].base, false},
	}
}
