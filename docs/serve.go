package main

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// watched are the folders whose files the guide is built from: when one of
// them changes, the served guide is rebuilt and its open pages reload.
// shared are those every chapter's browser module is compiled from besides
// the chapter's own folder: when one of them or the chapter changes, its
// module is compiled again (see moduleStamps). pinInputs are those the
// chapters' pins depend on: when one changes, the pins are checked again
// (see pinCheck).
var (
	watched   = []string{"docs", "chapters", "cmd", "mcp", "internal", "sdks", "testdata/scripts"}
	shared    = []string{"mcp", "internal", "go.mod"}
	pinInputs = []string{"chapters", "mcp", "internal", "go.mod", "testdata/scripts"}
)

// The live reload: how often the watcher looks at the sources, where the
// served pages listen for new builds, and how soon a page reconnects once
// its server is gone (restarted, say).
const (
	watchInterval = 100 * time.Millisecond
	livePath      = "/_live"
	reconnect     = 500 * time.Millisecond
)

// liveSite serves the guide as it is on disk: it rebuilds the site when a
// source changed since the last build, serves every page that builds and,
// in place of one that does not, what is wrong with it; and it tells the
// open pages when there is a new build, so that they reload.
//
// Each page it serves carries a <meta name="live-reload"> naming its build;
// the theme's script then listens on livePath, a stream of server-sent
// events that sends the current build's name when a page connects and
// whenever the guide is rebuilt, and reloads the page when the name
// differs from its own. The static build has no such element: its pages
// open no connection.
//
// An edit is served as soon as the pages are rendered: a chapter whose
// browser module no longer matches its sources loses its Run buttons
// until the module is compiled again, in the background, and the guide
// rebuilt with it; the pins' check starts beside that compile, so that
// neither delays the edited page, and a module compiled first waits for
// the check's marks, the guide then rebuilt once for both.
type liveSite struct {
	root string
	// compile compiles the chapters for the browser; nil means
	// compileBrowser, saying what it does on log.
	compile func(ctx context.Context, root string) (*site.Browser, error)
	// log is where it says what it does and what does not build; nil means
	// os.Stderr.
	log io.Writer
	// pins checks the chapters' pins in the background when a chapter or
	// a script changes, so that the pages mark the stale transcripts
	// (serveLive runs it); nil checks none.
	pins *pinCheck

	mu         sync.Mutex
	stamp      string // newest modification time and number of the sources
	checkStamp string // the same for what the pins' check reads
	checked    int    // pins.checked() when last compared with the marks
	marks      string // staleStamp of the last build's marks
	handler    http.Handler

	// browser holds the modules last compiled, from the sources of
	// moduleStamps builtFrom; failedFrom are the stamps the last compile
	// failed on, with compileErr. compiling is true while a compile runs
	// in the background, compiled once it ended and the guide was not
	// rebuilt since; compiles counts those compiles, for serveLive to
	// wait for.
	browser    *site.Browser
	builtFrom  map[string]string
	failedFrom map[string]string
	compileErr error
	compiling  bool
	compiled   bool
	compiles   sync.WaitGroup

	// subs are the open event streams, each waiting for the next build's
	// name; build is the current one's.
	subsMu sync.Mutex
	subs   map[chan string]bool
	build  string

	closeOnce sync.Once
	closed    chan struct{} // closed by closeStreams
}

func (l *liveSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == livePath {
		l.events(w, r)
		return
	}
	l.current().ServeHTTP(w, r)
}

// current returns the handler of an up-to-date build, rebuilding the guide
// if a source changed since the last build, a browser module was compiled,
// or the pins' check found other stale transcripts.
func (l *liveSite) current() http.Handler {
	l.mu.Lock()
	defer l.mu.Unlock()
	stamp := l.sourcesStamp(watched)
	edited := stamp != l.stamp // sourcesStamp is never "", so the first call builds
	marked := l.pins.checked() != l.checked && staleStamp(l.pins.stale()) != l.marks
	if !edited && !marked && (!l.compiled || l.pins.busy()) {
		// Newly compiled modules wait for a running check of the pins,
		// whose marks matter more, so that both come in one rebuild.
		l.checked = l.pins.checked()
		return l.handler
	}
	why := "Sources changed"
	switch {
	case !edited && marked:
		why = "The pins' check changed the stale marks"
	case !edited:
		why = "The browser modules are compiled"
	}
	start, again := time.Now(), l.stamp != ""
	l.stamp, l.compiled = stamp, false
	modules := l.moduleStamps()
	s, left, err := l.rebuild(modules)
	var pages *site.BuildError
	switch {
	case errors.As(err, &pages):
		l.logf("%d page(s) do not build: each shows why in its place, and the others are served.\n%v\n", len(pages.URLs()), err)
	case err != nil:
		s = site.ThemeAssets(os.DirFS(filepath.Join(l.root, "docs")))
		l.logf("the guide does not build:\n%v\n", err)
	}
	build := stamp + l.marks
	if len(left) > 0 {
		build += "+without-" + strings.Join(left, ",")
	}
	meta := fmt.Sprintf(`<meta name="live-reload" content="%s">`, template.HTMLEscapeString(build))
	l.handler = site.ServeBuild(s, err, template.HTML(meta))
	if n := l.publish(build); again {
		l.logf("%s; rebuilt the guide in %.1fs and told %d open page(s) to reload.\n", why, time.Since(start).Seconds(), n)
	}
	// Now that the edit is served, the modules and the pins, side by side.
	if len(left) > 0 && !l.compiling && !maps.Equal(modules, l.failedFrom) {
		l.compileLater(modules)
	}
	if check := l.sourcesStamp(pinInputs); check != l.checkStamp {
		l.checkStamp = check
		l.pins.changed()
	}
	return l.handler
}

// rebuild renders the guide, marking the transcripts the pins' check found
// stale so far, with the browser modules that match their chapters'
// sources (modules, as moduleStamps returns them); it returns the
// chapters left without, by folder name. The first build compiles the
// modules first, as does a build after one whose compile failed; a
// compile that failed on these sources fails the build.
func (l *liveSite) rebuild(modules map[string]string) (*site.Site, []string, error) {
	if l.browser == nil && !maps.Equal(modules, l.failedFrom) {
		b, err := l.compileModules()
		l.keep(modules, b, err)
	}
	if l.compileErr != nil && maps.Equal(modules, l.failedFrom) {
		return nil, nil, l.compileErr
	}
	browser, left := l.browser, []string(nil)
	for _, ch := range slices.Sorted(maps.Keys(modules)) {
		if l.builtFrom[ch] != modules[ch] {
			left = append(left, path.Base(ch))
		}
	}
	if len(left) > 0 {
		browser = &site.Browser{Modules: make(map[string][]byte), WasmExec: l.browser.WasmExec}
		for ch, m := range l.browser.Modules {
			if l.builtFrom[ch] == modules[ch] {
				browser.Modules[ch] = m
			}
		}
	}
	cfg := config(l.root, browser)
	l.checked = l.pins.checked()
	cfg.Stale = l.pins.stale()
	l.marks = staleStamp(cfg.Stale)
	s, err := site.Build(cfg)
	return s, left, err
}

// compileLater compiles the modules in the background, from the sources
// of stamps modules, then rebuilds the guide with them.
func (l *liveSite) compileLater(modules map[string]string) {
	l.compiling = true
	l.compiles.Add(1)
	go func() {
		defer l.compiles.Done()
		b, err := l.compileModules()
		l.mu.Lock()
		l.compiling, l.compiled = false, true
		l.keep(modules, b, err)
		l.mu.Unlock()
		l.current()
	}()
}

// compileModules compiles the chapters for the browser.
func (l *liveSite) compileModules() (*site.Browser, error) {
	if l.compile != nil {
		return l.compile(context.Background(), l.root)
	}
	return compileBrowser(context.Background(), l.root, l.out())
}

// keep records what a compile from the sources of stamps modules made.
func (l *liveSite) keep(modules map[string]string, b *site.Browser, err error) {
	if err != nil {
		l.failedFrom, l.compileErr = modules, err
		return
	}
	l.browser, l.builtFrom = b, modules
	l.failedFrom, l.compileErr = nil, nil
}

// moduleStamps returns the stamp of each chapter's browser module: that
// of its folder and of the shared sources, taken before a compile reads
// them, so that a module whose stamp is a chapter's current one is
// compiled from what is on disk.
func (l *liveSite) moduleStamps() map[string]string {
	chapters, _ := site.ChapterDirs(os.DirFS(l.root)) // none without chapters/
	common := l.sourcesStamp(shared)
	stamps := make(map[string]string)
	for _, ch := range chapters {
		stamps[ch] = common + " " + l.sourcesStamp([]string{ch})
	}
	return stamps
}

// watch rebuilds the guide as soon as its sources change, so that the open
// pages reload, until ctx is done.
func (l *liveSite) watch(ctx context.Context) {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			l.current()
		}
	}
}

// events serves the stream of build names to one page, until the page goes
// or closeStreams is called.
func (l *liveSite) events(w http.ResponseWriter, r *http.Request) {
	ch, build := l.subscribe()
	defer l.unsubscribe(ch)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fmt.Fprintf(w, "retry: %d\n\n", reconnect.Milliseconds())
	for {
		if build != "" {
			fmt.Fprintf(w, "event: build\ndata: %s\n\n", build)
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case build = <-ch:
		case <-r.Context().Done():
			return
		case <-l.closing():
			return
		}
	}
}

// subscribe opens a stream: it returns the channel of the next builds'
// names and the current one's.
func (l *liveSite) subscribe() (chan string, string) {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	if l.subs == nil {
		l.subs = make(map[chan string]bool)
	}
	ch := make(chan string, 1)
	l.subs[ch] = true
	return ch, l.build
}

func (l *liveSite) unsubscribe(ch chan string) {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	delete(l.subs, ch)
}

// publish makes build the current build and tells every open stream; it
// returns how many there are. A stream still sending the previous build's
// name when the next comes sends only the newest.
func (l *liveSite) publish(build string) int {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	l.build = build
	for ch := range l.subs {
		select {
		case <-ch:
		default:
		}
		ch <- build
	}
	return len(l.subs)
}

// streams returns how many event streams are open.
func (l *liveSite) streams() int {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	return len(l.subs)
}

// closeStreams ends every event stream, now and later: the server's
// Shutdown waits for its handlers, and a stream's would not end by itself.
func (l *liveSite) closeStreams() { l.closeOnce.Do(func() { close(l.closing()) }) }

// closing returns the channel closeStreams closes.
func (l *liveSite) closing() chan struct{} {
	l.subsMu.Lock()
	defer l.subsMu.Unlock()
	if l.closed == nil {
		l.closed = make(chan struct{})
	}
	return l.closed
}

// out is where the live site reports.
func (l *liveSite) out() io.Writer {
	if l.log == nil {
		return os.Stderr
	}
	return l.log
}

func (l *liveSite) logf(format string, args ...any) { fmt.Fprintf(l.out(), format, args...) }

// sourcesStamp summarizes the files in dirs: the newest modification time
// and how many there are, so that an edit, a new file and a removal all
// change it.
func (l *liveSite) sourcesStamp(dirs []string) string {
	var newest time.Time
	n := 0
	for _, dir := range dirs {
		filepath.WalkDir(filepath.Join(l.root, dir), func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				n++
				if fi.ModTime().After(newest) {
					newest = fi.ModTime()
				}
			}
			return nil
		})
	}
	return fmt.Sprintf("%d@%d", n, newest.UnixNano())
}
