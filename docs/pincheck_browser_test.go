package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestStalePinBrowser opens the page of a transcript whose chapter was
// edited, served with the pins' check: the page marks it by itself once
// the check is done, and the mark, its detail opened, is readable at
// desktop and phone width (the page no wider than the screen; the detail
// scrolls sideways, so that its carets stay under the bytes that differ)
// and passes axe-core.
// With -screenshots it saves the page at both widths.
func TestStalePinBrowser(t *testing.T) {
	ctx, started := startBrowser(t, 3*time.Minute)
	root := pinFixture(t)
	main := root + "/chapters/01-echo/main.go"
	writeSource(t, main, strings.Replace(echoChapter, `greeting = "hello"`, `greeting = "hello there"`, 1))
	tl := serveTest(t, &liveSite{root: root, compile: noBrowser, pins: newPinCheck(root)}, "127.0.0.1:0")
	if err := <-started; err != nil {
		t.Fatalf("starting the browser: %v", err)
	}
	pool := newTabs(ctx, 1)
	var err error
	if pool.axe, err = newAxeAudit(); err != nil {
		t.Log(err)
	}
	b := pool.get(t)
	b.visit(t, tl.url+"/other.html")
	took := b.pollWithin(t, `document.querySelectorAll(".stale-pin").length === 1 && document.readyState === "complete"`, buildTimeout)
	t.Logf("the page showed the mark %v after it opened", took.Round(10*time.Millisecond))
	for _, vp := range []viewport{desktop, phone} {
		b.viewport(t, vp.width, vp.height, vp.opts...)
		var mark struct {
			Text       string
			Fits, Seen bool
		}
		b.eval(t, `(() => {
			const m = document.querySelector(".stale-pin");
			m.querySelector("details").open = true;
			m.scrollIntoView({block: "start"});
			const r = m.getBoundingClientRect();
			return {text: m.innerText, seen: r.width > 0 && r.height > 0,
				fits: document.documentElement.scrollWidth <= window.innerWidth};
		})()`, &mark)
		for _, want := range []string{"go generate ./...", "case hello: stdout differs from its pin"} {
			if !strings.Contains(mark.Text, want) {
				t.Errorf("%s: the mark does not say %q:\n%s", vp.name, want, mark.Text)
			}
		}
		if !mark.Seen || !mark.Fits {
			t.Errorf("%s: the mark is hidden or wider than the screen (seen=%v, fits=%v)", vp.name, mark.Seen, mark.Fits)
		}
		b.audit(t, "other.html with a stale mark, at "+vp.name+" width", "")
		if *screenshots != "" {
			if err := os.MkdirAll(*screenshots, 0o755); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			shot(t, *screenshots, vp.name+"-stale-pin", png)
		}
	}
}
