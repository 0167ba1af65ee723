package site

import (
	"fmt"
	"io/fs"
)

// TranslationState says how a translation stands against its English page.
type TranslationState int

const (
	// Current: the translation follows the English page as it is.
	Current TranslationState = iota
	// Behind: the English page changed after the translation was made.
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
	// From is the English version the translation follows; Want is the
	// English page's current version.
	From, Want string
}

// String returns the line "go run ./docs status" prints for t.
func (t Translation) String() string {
	s := fmt.Sprintf("%-4s %-20s %s", t.Lang, t.Page, t.State)
	if t.State == Behind {
		s += fmt.Sprintf(" (follows %s, English is now %s)", t.From, t.Want)
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
	var list []Translation
	for _, l := range langs[1:] {
		for _, slug := range slugs {
			en, err := loadSource(docs, slug, SourceLanguage)
			if err != nil {
				return nil, err
			}
			tr, err := loadSource(docs, slug, l.Code)
			if err != nil {
				return nil, err
			}
			t := Translation{Page: slug, Lang: l.Code, Want: en.version, State: Missing}
			if tr != nil {
				t.From, t.State = tr.from, Current
				if tr.from != en.version {
					t.State = Behind
				}
			}
			list = append(list, t)
		}
	}
	return list, nil
}
