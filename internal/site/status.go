package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// TranslationState says how a translation stands against its English page.
type TranslationState int

const (
	// Current: the translation follows every section of the English page
	// as it is.
	Current TranslationState = iota
	// Behind: some sections of the English page changed after they were
	// translated.
	Behind
	// Missing: the page has no translation in the language.
	Missing
)

// String returns the state's name: current, behind or missing.
func (s TranslationState) String() string {
	return [...]string{"current", "behind", "missing"}[s]
}

// Translation is one page in one language other than English.
type Translation struct {
	Page  string // the page's slug
	Lang  string // the language's code
	State TranslationState
	// Behind lists the ids of the English sections that changed since the
	// translation recorded them, in page order; TopSection is the title,
	// summary and opening paragraphs.
	Behind []string
}

// String returns the line "go run ./docs status" prints for t.
func (t Translation) String() string {
	s := fmt.Sprintf("%-7s %-18s %s", t.Lang, t.Page, t.State)
	if t.State == Behind {
		s += ": " + strings.Join(t.Behind, " ")
	}
	return s
}

// Translations lists every page in every language but English, with its
// state.
func Translations(docs fs.FS) ([]Translation, error) {
	langs, err := loadLanguages(docs)
	if err != nil {
		return nil, err
	}
	slugs, err := loadOrder(docs)
	if err != nil {
		return nil, err
	}
	en := make([]*source, len(slugs))
	for i, slug := range slugs {
		if en[i], err = loadSource(docs, slug, SourceLanguage); err != nil {
			return nil, err
		}
	}
	var list []Translation
	for _, l := range langs[1:] {
		for i, slug := range slugs {
			tr, err := loadSource(docs, slug, l.Code)
			if err != nil {
				return nil, err
			}
			t := Translation{Page: slug, Lang: l.Code, State: Missing}
			if tr != nil {
				t.State, t.Behind = Current, behindSections(en[i].sections, tr.record)
				if len(t.Behind) > 0 {
					t.State = Behind
				}
			}
			list = append(list, t)
		}
	}
	return list, nil
}

// Stamp returns the translation of slug into lang with its record brought
// up to date: the sections named by ids, or all of them when ids is empty,
// are recorded as following the English page as it is now. Run it once
// those sections say again what the English says. A record that cannot be
// read (such as "source: pending") is replaced.
func Stamp(docs fs.FS, slug, lang string, ids ...string) ([]byte, error) {
	if lang == SourceLanguage {
		return nil, fmt.Errorf("%s is the source language: it has no record", lang)
	}
	en, err := loadSource(docs, slug, SourceLanguage)
	if err != nil {
		return nil, err
	}
	file := slug + "/" + lang + ".md"
	b, err := fs.ReadFile(docs, file)
	if err != nil {
		return nil, err
	}
	meta, body, err := frontMatter(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	record, err := parseRecord(meta["source"])
	if err != nil {
		record = make(map[string]string)
	}
	if len(ids) == 0 {
		for _, s := range en.sections {
			ids = append(ids, s.id)
		}
	}
	for _, id := range ids {
		i := slices.IndexFunc(en.sections, func(s section) bool { return s.id == id })
		if i < 0 {
			return nil, fmt.Errorf("%s has no section %s", en.file, id)
		}
		record[id] = en.sections[i].version
	}
	var out bytes.Buffer
	out.WriteString("---\n")
	skip := false // inside the old source: block
	for line := range strings.Lines(string(b[len("---\n") : len(b)-len(body)-len("---\n")])) {
		if skip && strings.HasPrefix(line, "  ") {
			continue
		}
		skip = strings.HasPrefix(line, "source:")
		if !skip {
			out.WriteString(line)
		}
	}
	out.WriteString(writeRecord(en.sections, record))
	out.WriteString("---\n")
	out.Write(body)
	return out.Bytes(), nil
}
