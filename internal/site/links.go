package site

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
)

// attr is the value of one attribute in an HTML page, and where it is.
type attr struct {
	val string
	at  int // the offset of its value in the page
}

// attrValues returns the values of every attribute name="..." in an HTML
// page, as the template and the renderer write them.
func attrValues(page []byte, name string) []attr {
	var vals []attr
	prefix := []byte(" " + name + `="`)
	for at := 0; ; {
		i := bytes.Index(page[at:], prefix)
		if i < 0 {
			return vals
		}
		at += i + len(prefix)
		end := bytes.IndexByte(page[at:], '"')
		if end < 0 {
			return vals
		}
		vals = append(vals, attr{string(page[at : at+end]), at})
		at += end
	}
}

// external reports whether a link leaves the site, which the check does not
// follow.
func external(link string) bool {
	for _, scheme := range []string{"http:", "https:", "mailto:", "data:"} {
		if strings.HasPrefix(link, scheme) {
			return true
		}
	}
	return false
}

// checkLinks checks that every link and image of every page points to a
// file of the site, every #anchor to an id on the target page, and that no
// page has an id twice. pages maps a page's path in the site to its page,
// so that a problem names the source and section; a link that every
// language's page breaks alike is reported once, for the English page.
// Links to the pages in broken, which did not build, are checked only as
// far as those pages were rendered: not at all for a page that could not
// be read, not for an anchor in a page with a directive that did not
// resolve, which may be what would have made it.
func (s *Site) checkLinks(pages map[string]*page, dir string, broken []string) []*DocError {
	ids := make(map[string][]string)
	var names []string
	for name, b := range s.Files {
		if strings.HasSuffix(name, ".html") {
			for _, a := range attrValues(b, "id") {
				ids[name] = append(ids[name], a.val)
			}
			names = append(names, name)
		}
	}
	// English first, so that a translation's copy of a problem joins it.
	slices.SortFunc(names, func(a, b string) int {
		if x, y := strings.Contains(a, "/"), strings.Contains(b, "/"); x != y {
			if x {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	var errs []*DocError
	for _, name := range names {
		page := s.Files[name]
		p := pages[name]
		fail := func(at int, key, msg string) {
			e := &DocError{File: name, Err: msg, key: key}
			if p != nil {
				e.File, e.Page, e.Lang, e.Section = path.Join(dir, p.src.file), p.slug(), p.lang, sectionAt(page, at)
			}
			errs = append(errs, e)
		}
		// site is the folder of the page's language, which a key leaves
		// out so that the same link in two languages is one cause.
		site := ""
		if p != nil && p.lang != SourceLanguage {
			site = p.lang + "/"
		}
		seen := make(map[string]bool)
		for _, a := range attrValues(page, "id") {
			if seen[a.val] {
				fail(a.at, "id "+a.val, fmt.Sprintf("two elements have the id %q: give one of the headings another {#id}, or include that transcript once", a.val))
			}
			seen[a.val] = true
		}
		for _, a := range append(attrValues(page, "href"), attrValues(page, "src")...) {
			link := strings.ReplaceAll(a.val, "&amp;", "&")
			if external(link) {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			file := name
			if target != "" {
				file = joinURL(name, target)
			}
			_, exists := s.Files[file]
			if q := pages[file]; slices.Contains(broken, file) && (!exists || q != nil && q.unresolved) {
				continue
			}
			key := "link " + strings.TrimPrefix(file, site) + "#" + anchor
			if !exists {
				fail(a.at, key, fmt.Sprintf("link %q: no such file %s (link to a page by its slug in pages.txt and .html, as in overview.html#why)", link, file))
				continue
			}
			if anchor != "" && !slices.Contains(ids[file], anchor) {
				fail(a.at, key, fmt.Sprintf("link %q: %s has no anchor #%s (no heading there ends in {#%s}, and no transcript has that id)", link, file, anchor, anchor))
			}
		}
	}
	return errs
}

// sectionAt returns the id of the section of a rendered page that offset
// at falls in: the last level-2 heading before it, TopSection in the
// article before the first, "" outside the article.
func sectionAt(page []byte, at int) string {
	article := bytes.Index(page, []byte("<article>"))
	if article < 0 || at < article || bytes.Contains(page[article:at], []byte("</article>")) {
		return ""
	}
	head := []byte(`<h2 id="`)
	i := bytes.LastIndex(page[article:at], head)
	if i < 0 {
		return TopSection
	}
	id := page[article+i+len(head):]
	return string(id[:bytes.IndexByte(id, '"')])
}
