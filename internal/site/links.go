package site

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

var (
	linkAttr = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)
	idAttr   = regexp.MustCompile(`\sid="([^"]*)"`)
)

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
// of the site, and every #anchor to an id on the target page.
func (s *Site) checkLinks() error {
	ids := make(map[string][]string)
	for name, b := range s.Files {
		if strings.HasSuffix(name, ".html") {
			ids[name] = []string{}
			for _, m := range idAttr.FindAllSubmatch(b, -1) {
				ids[name] = append(ids[name], string(m[1]))
			}
		}
	}
	var errs []error
	names := make([]string, 0, len(ids))
	for name := range ids {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, m := range linkAttr.FindAllSubmatch(s.Files[name], -1) {
			link := strings.ReplaceAll(string(m[1]), "&amp;", "&")
			if external(link) {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			file := name
			if target != "" {
				file = joinURL(name, target)
			}
			if _, ok := s.Files[file]; !ok {
				errs = append(errs, fmt.Errorf("%s: link %q: no such file %s", name, link, file))
				continue
			}
			if anchor != "" && !slices.Contains(ids[file], anchor) {
				errs = append(errs, fmt.Errorf("%s: link %q: %s has no anchor #%s", name, link, file, anchor))
			}
		}
	}
	return errors.Join(errs...)
}
