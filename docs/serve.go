package main

import (
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpbookshop/guide/internal/site"
)

// watched are the folders whose files the guide is built from: when one of
// them changes, the served guide is rebuilt before the next page is served.
// compiled are those the chapters' browser modules are compiled from: when
// one of them changes, the modules are compiled again too.
var (
	watched  = []string{"docs", "chapters", "cmd", "mcp", "internal", "testdata/scripts"}
	compiled = []string{"chapters", "mcp", "internal", "go.mod"}
)

// liveSite serves the guide as it is on disk: it rebuilds the site when a
// source changed since the last build.
type liveSite struct {
	root string
	// compile compiles the chapters for the browser; nil means
	// compileBrowser, saying what it does on stdout.
	compile func(ctx context.Context, root string) (*site.Browser, error)

	mu           sync.Mutex
	stamp        string // newest modification time and number of the sources
	compileStamp string // the same for the modules' sources
	browser      *site.Browser
	handler      http.Handler
	err          error
}

func (l *liveSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, err := l.current()
	if err != nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "<!DOCTYPE html><title>The guide does not build</title><h1>The guide does not build</h1><pre>%s</pre>",
			template.HTMLEscapeString(err.Error()))
		return
	}
	h.ServeHTTP(w, r)
}

// current returns the handler of an up-to-date build, or why there is none.
func (l *liveSite) current() (http.Handler, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	stamp := l.sourcesStamp(watched)
	if stamp == l.stamp { // sourcesStamp is never "", so the first call builds
		return l.handler, l.err
	}
	if l.stamp != "" {
		fmt.Println("Sources changed; rebuilding the guide.")
	}
	l.stamp = stamp
	s, err := l.build()
	if err != nil {
		l.handler, l.err = nil, err
		fmt.Fprintf(os.Stderr, "the guide does not build:\n%v\n", err)
		return nil, err
	}
	l.handler, l.err = site.Handler(s), nil
	return l.handler, nil
}

// build compiles the modules again if their sources changed, and renders
// the guide.
func (l *liveSite) build() (*site.Site, error) {
	ctx := context.Background()
	if stamp := l.sourcesStamp(compiled); stamp != l.compileStamp || l.browser == nil {
		compile := l.compile
		if compile == nil {
			compile = func(ctx context.Context, root string) (*site.Browser, error) {
				return compileBrowser(ctx, root, os.Stdout)
			}
		}
		b, err := compile(ctx, l.root)
		if err != nil {
			return nil, err
		}
		l.browser, l.compileStamp = b, stamp
	}
	return site.Build(config(l.root, l.browser))
}

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
