package main

import (
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
// them changes, the served guide is rebuilt before the next page is served,
// and the chapters are built again before the next Run.
var watched = []string{"docs", "chapters", "cmd", "mcp", "testdata/scripts"}

// liveSite serves the guide as it is on disk: it rebuilds the site when a
// source changed since the last build.
type liveSite struct {
	root   string
	runner *site.Runner

	mu      sync.Mutex
	stamp   string // newest modification time and number of the sources
	handler http.Handler
	err     error
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
	stamp := l.sourcesStamp()
	if stamp == l.stamp { // sourcesStamp is never "", so the first call builds
		return l.handler, l.err
	}
	if l.stamp != "" {
		fmt.Println("Sources changed; rebuilding the guide.")
		l.runner.Close() // the chapters are built again when next run
	}
	l.stamp = stamp
	s, err := site.Build(config(l.root, true))
	if err != nil {
		l.handler, l.err = nil, err
		fmt.Fprintf(os.Stderr, "the guide does not build:\n%v\n", err)
		return nil, err
	}
	l.handler, l.err = site.Handler(s, l.runner), nil
	return l.handler, nil
}

// sourcesStamp summarizes the watched files: the newest modification time
// and how many there are, so that an edit, a new file and a removal all
// change it.
func (l *liveSite) sourcesStamp() string {
	var newest time.Time
	n := 0
	for _, dir := range watched {
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
