package site

import (
	"errors"
	"strings"
)

// BuildError is the error of a [Build] in which some pages did not build
// while the site around them did. Build returns it together with a Site
// that holds every other page, so that a server can serve those and show,
// in place of each broken page, what is wrong with it; find it with
// errors.As. Any other error from Build comes with no Site.
type BuildError struct {
	// Pages lists the pages that did not build, language by language in
	// the order of pages.txt, English first.
	Pages []*PageError
}

// PageError says why one page, in one language, did not build.
type PageError struct {
	// File is the page's source in the docs tree, slash-separated:
	// overview/en.md.
	File string
	// URL is the page's path in the site: overview.html, fr/overview.html.
	// The Site built with the error has no file there.
	URL string
	// Err holds every problem found in the page, each message naming File.
	Err error
}

func (e *PageError) Error() string { return e.Err.Error() }

func (e *PageError) Unwrap() error { return e.Err }

// Error lists every problem of every page, one page after the other.
func (e *BuildError) Error() string {
	var b strings.Builder
	for i, p := range e.Pages {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

func (e *BuildError) Unwrap() []error {
	errs := make([]error, len(e.Pages))
	for i, p := range e.Pages {
		errs[i] = p
	}
	return errs
}

// Page returns the error of the page at url, a path in the site, or nil if
// that page built.
func (e *BuildError) Page(url string) *PageError {
	for _, p := range e.Pages {
		if p.URL == url {
			return p
		}
	}
	return nil
}

// brokenPages collects, during a Build, the problems of each page.
type brokenPages map[*page][]error

// add records a problem of p.
func (b brokenPages) add(p *page, err error) { b[p] = append(b[p], err) }

// has reports whether p has a problem.
func (b brokenPages) has(p *page) bool { return len(b[p]) > 0 }

// buildError returns the BuildError listing the broken pages in site
// order, or nil if there are none.
func (b brokenPages) buildError(langs []*Language, pages map[string][]*page) error {
	if len(b) == 0 {
		return nil
	}
	e := &BuildError{}
	for _, l := range langs {
		for _, p := range pages[l.Code] {
			if b.has(p) {
				e.Pages = append(e.Pages, &PageError{File: p.src.file, URL: p.url, Err: errors.Join(b[p]...)})
			}
		}
	}
	return e
}
