package main

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// watched are the folders whose files the guide is built from: when one of
// them changes, the served guide is rebuilt and its open pages reload.
// compiled are those the chapters' browser modules are compiled from: when
// one of them changes, the modules are compiled again too. pinInputs are
// those the chapters' pins depend on: when one changes, the pins are
// checked again (see pinCheck).
var (
	watched   = []string{"docs", "chapters", "cmd", "mcp", "internal", "sdks", "testdata/scripts"}
	compiled  = []string{"chapters", "mcp", "internal", "go.mod"}
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

	mu           sync.Mutex
	stamp        string // newest modification time and number of the sources
	compileStamp string // the same for the modules' sources
	checkStamp   string // the same for what the pins' check reads
	checked      int    // pins.checked() when last compared with the marks
	marks        string // staleStamp of the last build's marks
	browser      *site.Browser
	handler      http.Handler

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
// if a source changed since the last build, or the pins' check found other
// stale transcripts.
func (l *liveSite) current() http.Handler {
	l.mu.Lock()
	defer l.mu.Unlock()
	stamp := l.sourcesStamp(watched)
	edited := stamp != l.stamp // sourcesStamp is never "", so the first call builds
	if !edited && (l.pins.checked() == l.checked || staleStamp(l.pins.stale()) == l.marks) {
		l.checked = l.pins.checked()
		return l.handler
	}
	if check := l.sourcesStamp(pinInputs); check != l.checkStamp {
		// Checked while the chapters are compiled for the browser, so
		// that the marks may come with this build.
		l.checkStamp = check
		l.pins.changed()
	}
	start, again := time.Now(), l.stamp != ""
	l.stamp = stamp
	s, err := l.rebuild()
	var pages *site.BuildError
	switch {
	case errors.As(err, &pages):
		l.logf("%d page(s) do not build: each shows why in its place, and the others are served.\n%v\n", len(pages.URLs()), err)
	case err != nil:
		s = site.ThemeAssets(os.DirFS(filepath.Join(l.root, "docs")))
		l.logf("the guide does not build:\n%v\n", err)
	}
	build := stamp + l.marks
	meta := fmt.Sprintf(`<meta name="live-reload" content="%s">`, template.HTMLEscapeString(build))
	l.handler = site.ServeBuild(s, err, template.HTML(meta))
	why := "Sources changed"
	if !edited {
		why = "The pins' check changed the stale marks"
	}
	if n := l.publish(build); again {
		l.logf("%s; rebuilt the guide in %.1fs and told %d open page(s) to reload.\n", why, time.Since(start).Seconds(), n)
	}
	return l.handler
}

// rebuild compiles the modules again if their sources changed, and renders
// the guide, marking the transcripts the pins' check found stale so far.
func (l *liveSite) rebuild() (*site.Site, error) {
	ctx := context.Background()
	if stamp := l.sourcesStamp(compiled); stamp != l.compileStamp || l.browser == nil {
		compile := l.compile
		if compile == nil {
			compile = func(ctx context.Context, root string) (*site.Browser, error) {
				return compileBrowser(ctx, root, l.out())
			}
		}
		b, err := compile(ctx, l.root)
		if err != nil {
			return nil, err
		}
		l.browser, l.compileStamp = b, stamp
	}
	cfg := config(l.root, l.browser)
	l.checked = l.pins.checked()
	cfg.Stale = l.pins.stale()
	l.marks = staleStamp(cfg.Stale)
	return site.Build(cfg)
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
