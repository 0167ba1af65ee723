package site

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// attrValues returns the values of every attribute name="..." in an HTML
// page, as the template and the renderer write them.
func attrValues(page []byte, name string) []string {
	var vals []string
	prefix := []byte(" " + name + `="`)
	for {
		i := bytes.Index(page, prefix)
		if i < 0 {
			return vals
		}
		page = page[i+len(prefix):]
		end := bytes.IndexByte(page, '"')
		if end < 0 {
			return vals
		}
		vals = append(vals, string(page[:end]))
		page = page[end:]
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

// checkLinks checks that every link and image of every page points to a file
// of the site, every #anchor to an id on the target page, and that no page
// has an id twice; it returns the problems of each page by its path. A link
// to a file for which skip is true is not checked.
func (s *Site) checkLinks(skip func(file string) bool) map[string][]error {
	ids := make(map[string][]string)
	for name, b := range s.Files {
		if strings.HasSuffix(name, ".html") {
			ids[name] = attrValues(b, "id")
		}
	}
	errs := make(map[string][]error)
	for name, list := range ids {
		seen := make(map[string]bool, len(list))
		for _, id := range list {
			if seen[id] {
				errs[name] = append(errs[name], fmt.Errorf("%s: two elements have the id %q", name, id))
			}
			seen[id] = true
		}
	}
	names := make([]string, 0, len(ids))
	for name := range ids {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		page := s.Files[name]
		for _, link := range append(attrValues(page, "href"), attrValues(page, "src")...) {
			link = strings.ReplaceAll(link, "&amp;", "&")
			if external(link) {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			file := name
			if target != "" {
				file = joinURL(name, target)
			}
			if skip(file) {
				continue
			}
			if _, ok := s.Files[file]; !ok {
				errs[name] = append(errs[name], fmt.Errorf("%s: link %q: no such file %s", name, link, file))
				continue
			}
			if anchor != "" && !slices.Contains(ids[file], anchor) {
				errs[name] = append(errs[name], fmt.Errorf("%s: link %q: %s has no anchor #%s", name, link, file, anchor))
			}
		}
	}
	return errs
}
