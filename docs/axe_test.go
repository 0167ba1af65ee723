package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeFile is axe-core's script, as npm ci at the repository's root
// installs it from package.json (the browser test runs in docs/).
const axeFile = "../node_modules/axe-core/axe.min.js"

// axeInstall is the command that installs axe-core.
const axeInstall = "npm ci (at the repository's root)"

// axeRun is a function of a selector ("" for the whole page) that runs
// axe-core on that part of the page, every rule enabled, those axe calls
// experimental too (label-content-name-mismatch is one), and resolves to
// the violations rated serious or critical, with the elements that have
// them.
const axeRun = `(async within => {
	// Two frames, so that what the page does on a change of width (see
	// fitScroll in site.js) is done.
	await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
	const rules = Object.fromEntries(axe.getRules(["experimental"]).map(r => [r.ruleId, {enabled: true}]));
	// The browser test's own language has a private-use tag, which axe
	// does not know; the site's languages it does.
	if (document.documentElement.lang === "` + testLang + `") { rules["html-lang-valid"] = {enabled: false}; }
	// No preload: from file:// axe may not fetch the style sheets, and the
	// one rule that reads them (css-orientation-lock) does not apply.
	const res = await axe.run(within ? {include: [within]} : document, {resultTypes: ["violations"], rules, preload: false});
	const bad = n => n.impact === "serious" || n.impact === "critical";
	return res.violations.filter(v => v.nodes.some(bad)).map(v => ({
		rule: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.filter(bad).map(n => n.target.join(" ") + "  " + n.html.replace(/\s+/g, " ").slice(0, 160)),
	}));
})`

// axeViolation is a rule a page breaks, and where.
type axeViolation struct {
	Rule, Impact, Help string
	Nodes              []string
}

// axeAudit runs axe-core in the browser test's pages and counts what it
// finds, by rule, for the test's summary. A nil *axeAudit checks nothing.
type axeAudit struct {
	script string

	mu     sync.Mutex
	took   time.Duration  // checking, summed over the tabs
	views  int            // pages checked
	failed int            // of them, with a serious or critical violation
	nodes  map[string]int // elements in violation, by rule
	pages  map[string]int // pages with the rule violated, by rule
}

// newAxeAudit reads axe-core's script; it returns nil and the reason where
// axe-core is not installed.
func newAxeAudit() (*axeAudit, error) {
	b, err := os.ReadFile(axeFile)
	if errors.Is(err, fs.ErrNotExist) {
		abs, _ := filepath.Abs(axeFile)
		return nil, fmt.Errorf("axe-core is not installed (no %s): the browser test checks no page's accessibility; install it with %s, as .ci/run does", abs, axeInstall)
	}
	if err != nil {
		return nil, err
	}
	return &axeAudit{script: string(b), nodes: make(map[string]int), pages: make(map[string]int)}, nil
}

// check runs axe-core on the page the tab shows, or the part of it that
// the selector within picks, and fails t for each serious or critical
// violation, naming what (the page and its state), the rule and the
// elements.
func (a *axeAudit) check(t *testing.T, b *tab, what, within string) {
	t.Helper()
	if a == nil {
		return
	}
	start := time.Now()
	var loaded bool
	b.eval(t, `typeof axe === "object"`, &loaded)
	if !loaded {
		// Evaluated as a script of its own, so that it defines the global
		// axe; an error names the file, not its half a megabyte.
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](a.script+"\n;typeof axe === \"object\""))
		if err != nil || !ok {
			t.Fatalf("%s: loading %s into the page: defines axe %v, %v", what, axeFile, ok, err)
		}
	}
	var found []axeViolation
	sel, _ := json.Marshal(within)
	b.eval(t, "("+axeRun+")("+string(sel)+")", &found)
	a.mu.Lock()
	a.took += time.Since(start)
	a.views++
	if len(found) > 0 {
		a.failed++
	}
	for _, v := range found {
		a.nodes[v.Rule] += len(v.Nodes)
		a.pages[v.Rule]++
	}
	a.mu.Unlock()
	for _, v := range found {
		t.Errorf("%s: axe-core: %s (%s): %s, %d element(s):\n\t%s", what, v.Rule, v.Impact, v.Help, len(v.Nodes), strings.Join(v.Nodes, "\n\t"))
	}
}

// report logs how many pages axe-core checked and what it found, by rule.
func (a *axeAudit) report(t *testing.T) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.views == 0 {
		return
	}
	if a.failed == 0 {
		t.Logf("axe-core: %d page views checked in %v (summed over the tabs), no serious or critical violation", a.views, a.took.Round(time.Second))
		return
	}
	var lines []string
	for _, rule := range slices.Sorted(maps.Keys(a.nodes)) {
		lines = append(lines, fmt.Sprintf("%s: %d elements on %d page views", rule, a.nodes[rule], a.pages[rule]))
	}
	t.Logf("axe-core: %d page views checked in %v (summed over the tabs), %d with serious or critical violations:\n%s", a.views, a.took.Round(time.Second), a.failed, strings.Join(lines, "\n"))
}
