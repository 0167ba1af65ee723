package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// SourceLanguage is the language every page is written in first.
const SourceLanguage = "en"

// Language is one language of the site, read from lang/<code>.json.
type Language struct {
	// Code is the BCP 47 tag, as in the lang attribute: "en", "fr".
	Code string `json:"-"`
	// Name is the language's name in itself: "English", "Français".
	Name string `json:"name"`
	// UI holds the interface strings (site title, "Next", "On this page"...)
	// by key; see lang/en.json for the keys.
	UI map[string]string `json:"ui"`
}

// source is one page in one language, as read from the docs tree.
type source struct {
	file    string // path in the docs tree
	title   string
	summary string // one line for the landing page's list
	body    []byte // after the front matter
	// sections are the page's sections in order, each with its Version.
	sections []section
	// record, in a translation, is what it recorded of each section it
	// follows, by section id.
	record map[string]recorded
}

// loadLanguages reads lang/*.json, English first, the others by code.
func loadLanguages(docs fs.FS) ([]*Language, error) {
	files, err := fs.Glob(docs, "lang/*.json")
	if err != nil {
		return nil, err
	}
	var langs []*Language
	for _, f := range files {
		b, err := fs.ReadFile(docs, f)
		if err != nil {
			return nil, err
		}
		l := &Language{Code: strings.TrimSuffix(path.Base(f), ".json")}
		if err := json.Unmarshal(b, l); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		langs = append(langs, l)
	}
	slices.SortFunc(langs, func(a, b *Language) int {
		switch {
		case a.Code == b.Code:
			return 0
		case a.Code == SourceLanguage:
			return -1
		case b.Code == SourceLanguage:
			return 1
		}
		return strings.Compare(a.Code, b.Code)
	})
	if len(langs) == 0 || langs[0].Code != SourceLanguage {
		return nil, fmt.Errorf("lang/%s.json is missing", SourceLanguage)
	}
	for _, l := range langs[1:] {
		for k := range langs[0].UI {
			if l.UI[k] == "" {
				return nil, fmt.Errorf("lang/%s.json: ui string %q is missing", l.Code, k)
			}
		}
	}
	return langs, nil
}

// loadOrder reads pages.txt: one slug a line, blank lines and # comments
// ignored.
func loadOrder(docs fs.FS) ([]string, error) {
	b, err := fs.ReadFile(docs, "pages.txt")
	if err != nil {
		return nil, err
	}
	var slugs []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if slices.Contains(slugs, line) {
			return nil, fmt.Errorf("pages.txt: %s listed twice", line)
		}
		slugs = append(slugs, line)
	}
	return slugs, nil
}

// loadSource reads docs/<slug>/<lang>.md, or returns nil if there is none.
func loadSource(docs fs.FS, slug, lang string) (*source, error) {
	file := slug + "/" + lang + ".md"
	b, err := fs.ReadFile(docs, file)
	if err != nil {
		if lang != SourceLanguage && errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	s := &source{file: file}
	meta, body, err := frontMatter(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	s.body = body
	s.title, s.summary = meta["title"], meta["summary"]
	if s.title == "" {
		return nil, fmt.Errorf("%s: front matter has no title", file)
	}
	s.sections = splitSections(s.title, s.summary, body)
	if lang == SourceLanguage {
		return s, nil
	}
	if s.record, err = parseRecord(meta["source"]); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return s, nil
}

// frontMatter splits "---\nkey: value\n---\n" from the start of b. A key
// with no value on its line takes the indented lines under it, joined by
// newlines, as its value.
func frontMatter(b []byte) (map[string]string, []byte, error) {
	const fence = "---\n"
	if !bytes.HasPrefix(b, []byte(fence)) {
		return nil, nil, fmt.Errorf("no front matter (a first line of ---)")
	}
	rest := b[len(fence):]
	end := bytes.Index(rest, []byte("\n"+fence))
	if end < 0 {
		return nil, nil, fmt.Errorf("front matter is not closed by ---")
	}
	meta := make(map[string]string)
	var block string // the key whose indented lines follow
	for line := range strings.Lines(string(rest[:end+1])) {
		line = strings.TrimSuffix(line, "\n")
		if block != "" && strings.HasPrefix(line, "  ") {
			meta[block] += line + "\n"
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, nil, fmt.Errorf("front matter line %q is not key: value", line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		meta[k], block = v, ""
		if v == "" {
			block = k
		}
	}
	return meta, rest[end+1+len(fence):], nil
}
