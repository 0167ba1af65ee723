package site

import (
	"bytes"
	"errors"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// Handler serves a built site as a static host would: the Run buttons need
// nothing more.
func Handler(s *Site) http.Handler { return ServeBuild(s, nil, "") }

// ServeBuild serves what a [Build] returned, as the guide's own server does
// while its sources are edited: the files of s, and in place of each page
// that did not build (of every page, if err is not a [*BuildError]) a page
// in the site's style that names the file, what is wrong with it and how
// to fix it, with status 500. s may be nil, or hold only the theme's
// assets ([ThemeAssets]) when the build failed as a whole. head is HTML
// added at the start of the head of every page served, the error pages
// included: the live server's reload marker.
func ServeBuild(s *Site, err error, head template.HTML) http.Handler {
	var files map[string][]byte
	if s != nil {
		files = s.Files
	}
	var pages *BuildError
	whole := err != nil && !errors.As(err, &pages) // no page built
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, req *http.Request) {
		name := strings.TrimPrefix(path.Clean(req.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if whole && (path.Ext(name) == ".html" || path.Ext(name) == "") {
			serveError(w, &errorPage{Head: head, Err: err.Error()})
			return
		}
		if pages != nil {
			if errs := pages.Page(name); errs != nil {
				serveError(w, newErrorPage(head, name, errs, pages))
				return
			}
		}
		b, ok := files[name]
		if !ok {
			_, file := files[name+"/index.html"]
			if pages != nil && pages.Page(name+"/index.html") != nil || file {
				http.Redirect(w, req, "/"+name+"/index.html", http.StatusFound)
				return
			}
			http.NotFound(w, req)
			return
		}
		if ct := textTypes[path.Ext(name)]; ct != "" {
			w.Header().Set("Content-Type", ct)
		} else if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "no-cache")
		if head != "" && path.Ext(name) == ".html" {
			b = bytes.Replace(b, []byte("<head>"), []byte("<head>\n"+string(head)), 1)
		}
		w.Write(b)
	})
	return mux
}

// textTypes are the content types of the site's text files for programs,
// which mime's table may lack.
var textTypes = map[string]string{
	".md":  "text/markdown; charset=utf-8",
	".txt": "text/plain; charset=utf-8",
}

// ThemeAssets returns a site of the theme's style sheet and script alone,
// for [ServeBuild] to style its error page with when no page built.
func ThemeAssets(docs fs.FS) *Site {
	s := &Site{Files: make(map[string][]byte)}
	for _, name := range []string{"style.css", "site.js"} {
		if b, err := fs.ReadFile(docs, "theme/"+name); err == nil {
			s.Files["assets/"+name] = b
		}
	}
	return s
}

// errorPage is what the page shown in place of a page that did not build
// says.
type errorPage struct {
	Head template.HTML
	// File is the source that breaks the page (a translation may fail
	// with its English page); "" when no page built.
	File string
	Err  string
	// Others are the other pages that did not build, by path.
	Others []string
}

// newErrorPage returns the error page of the page at url, whose problems
// errs are among all's.
func newErrorPage(head template.HTML, url string, errs []*DocError, all *BuildError) *errorPage {
	p := &errorPage{Head: head, File: errs[0].File}
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	p.Err = strings.Join(lines, "\n")
	for _, other := range all.URLs() {
		if other != url {
			p.Others = append(p.Others, other)
		}
	}
	return p
}

// serveError writes the error page p with status 500.
func serveError(w http.ResponseWriter, p *errorPage) {
	var b bytes.Buffer
	if err := errorTemplate.Execute(&b, p); err != nil {
		http.Error(w, p.Err, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write(b.Bytes())
}

// errorTemplate is the page served in place of a page that did not build:
// the site's style sheet and script (for the live reload), no menus, since
// a page that did not build may be one they are made from.
var errorTemplate = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
{{.Head}}<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>{{with .File}}Does not build: {{.}}{{else}}The guide does not build{{end}}</title>
<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/site.js" defer></script>
</head>
<body class="build-failed" data-root="/">
<header class="top"><a class="brand" href="/index.html"><span class="logo" aria-hidden="true">{ }</span> <span class="name">Home</span></a></header>
<main id="content">
<article>
{{if .File}}<h1>This page does not build</h1>
<p>Its source has a problem, in <code>{{.File}}</code>: the guide leaves the page out and serves every other page as usual.</p>
{{else}}<h1>The guide does not build</h1>
<p>Not one page can be served until this is fixed:</p>
{{end}}<pre class="build-error">{{.Err}}</pre>
<h2 id="fix">How to fix it</h2>
<p>{{if .File}}Fix what each line above names in <code>{{.File}}</code>{{else}}Fix what the message names{{end}} and save: this page reloads itself once it builds. Until every page builds, <code>go run ./docs build</code> fails with the same message.</p>
{{with .Others}}<p>Other pages that do not build:</p>
<ul>{{range .}}<li><a href="/{{.}}">{{.}}</a></li>{{end}}</ul>
{{end}}</article>
</main>
</body>
</html>
`))
