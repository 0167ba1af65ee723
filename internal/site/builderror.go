package site

import (
	"fmt"
	"slices"
	"strings"
)

// DocError is one problem in a page of the docs: where it is, what is
// wrong and how to fix it.
type DocError struct {
	// File is the page's source, under Config.DocsDir:
	// docs/tool-errors/en.md.
	File string
	// Page and Lang are the page's slug and language.
	Page, Lang string
	// Section is the id of the section the problem is in, TopSection
	// before the first heading, or "" for the whole page.
	Section string
	// Err says what is wrong, then how to fix it.
	Err string
	// Also lists the other languages whose page fails the same way: a
	// translation that includes a broken directive or link fails with
	// its English page, and is reported with it, once.
	Also []string

	key string // what makes two errors the same cause, with Page and Section
}

// Error returns "file: section id: what is wrong (fix)".
func (e *DocError) Error() string {
	var b strings.Builder
	b.WriteString(e.File + ": ")
	if e.Section != "" {
		b.WriteString("section " + e.Section + ": ")
	}
	b.WriteString(e.Err)
	switch n := len(e.Also); {
	case n > 3:
		fmt.Fprintf(&b, " (the same in %d translations)", n)
	case n > 0:
		fmt.Fprintf(&b, " (the same in %s)", strings.Join(e.Also, ", "))
	}
	return b.String()
}

// BuildError is every problem [Build] found in the docs, each cause once,
// in the order found: English pages first. Get it with errors.As to tell
// the broken pages from the rest.
type BuildError struct {
	Errors []*DocError
}

// Error returns one line per problem.
func (e *BuildError) Error() string {
	lines := make([]string, len(e.Errors))
	for i, d := range e.Errors {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// add records d, unless the same cause was recorded for the same page
// and section in another language: then it adds d's language to that
// one's Also.
func (e *BuildError) add(d *DocError) {
	if d.key == "" {
		d.key = d.Err
	}
	for _, o := range e.Errors {
		if o.Page == d.Page && o.Section == d.Section && o.key == d.key && d.Page != "" {
			if o.Lang != d.Lang && !slices.Contains(o.Also, d.Lang) {
				o.Also = append(o.Also, d.Lang)
			}
			return
		}
	}
	e.Errors = append(e.Errors, d)
}

// Page returns the problems of the page at url, a path in the site such as
// tool-errors.html or fr/tool-errors.html, or nil if that page built: its
// own, and those of its English page that it shares (Also).
func (e *BuildError) Page(url string) []*DocError {
	lang, file := SourceLanguage, url
	if l, f, ok := strings.Cut(url, "/"); ok {
		lang, file = l, f
	}
	slug, ok := strings.CutSuffix(file, ".html")
	if !ok {
		return nil
	}
	var errs []*DocError
	for _, d := range e.Errors {
		if d.Page == slug && (d.Lang == lang || slices.Contains(d.Also, lang)) {
			errs = append(errs, d)
		}
	}
	return errs
}

// URLs returns the paths in the site of the pages that did not build, in
// the order their problems were found.
func (e *BuildError) URLs() []string {
	var urls []string
	for _, d := range e.Errors {
		if d.Page == "" {
			continue
		}
		for _, lang := range append([]string{d.Lang}, d.Also...) {
			if u := pageURL(lang, d.Page); !slices.Contains(urls, u) {
				urls = append(urls, u)
			}
		}
	}
	return urls
}
