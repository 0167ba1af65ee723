package site

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"text/tabwriter"
)

// TranslationState says how a translation stands against its English page.
type TranslationState int

const (
	// Current: the translation follows every section of the English page
	// as it is.
	Current TranslationState = iota
	// Behind: some sections of the English page changed, appeared or
	// moved after they were translated.
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
	// Sections is the English page's sections, in order; TopSection is
	// the title, summary and opening paragraphs.
	Sections []string
	// Behind lists the English sections the translation is behind in, in
	// page order, each with why.
	Behind []SectionBehind
	// Extra lists the sections of the translation that the English page no
	// longer has: they are not shown, and the translator may delete them.
	Extra []string
}

// SectionBehind is one section of a translation that is behind its
// English page.
type SectionBehind struct {
	ID  string
	Why Lag
	// Numbers says how its numbers differ from the English ones, when
	// Why is Numbers.
	Numbers *NumberDiff
	// Reasons lists, for the pseudo-section ReasonsSection, the reasons
	// behind, of the Of reasons the page has (see AddReasons).
	Reasons []ReasonBehind
	Of      int
}

// Reason returns why the section is behind, as status prints it:
// "changed", or for numbers, which: "numbers (English 7, translation
// 7,3)"; for the reasons, which of them: "new (all 30)".
func (b SectionBehind) Reason() string {
	if len(b.Reasons) > 0 {
		return reasonsBehind(b.Reasons, b.Of)
	}
	if b.Why == Numbers {
		return fmt.Sprintf("%s (%s)", b.Why, b.Numbers)
	}
	return b.Why.String()
}

// String returns the line the verbose status prints for t.
func (t Translation) String() string {
	s := fmt.Sprintf("%-7s %-18s %s", t.Lang, t.Page, t.State)
	if t.State == Behind {
		var ids []string
		for _, b := range t.Behind {
			ids = append(ids, b.ID)
		}
		s += ": " + strings.Join(ids, " ")
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
			for _, s := range en[i].sections {
				t.Sections = append(t.Sections, s.id)
			}
			if tr != nil {
				lag := compareSections(en[i].sections, tr.sections, tr.record)
				t.State, t.Extra = Current, lag.extra
				for _, id := range lag.order {
					b := SectionBehind{ID: id, Why: lag.behind[id]}
					if b.Why == Numbers {
						b.Numbers = lag.numbers[id]
					}
					t.Behind = append(t.Behind, b)
				}
				if len(t.Behind) > 0 {
					t.State = Behind
				}
			}
			list = append(list, t)
		}
	}
	return list, nil
}

// StatusFormat describes what [WriteStatus] prints, for the status
// command's help.
const StatusFormat = `By default, status prints one line per language: how many of the English
pages it has (translated/all), then how many English sections it has
current, behind (changed, new or moved in English since they were
translated, or writing numbers other than the English section's) and
missing (in pages it lacks). With -v it then lists every section behind,
one line per section with why (for numbers, those each side writes that
the other does not) and the languages it is behind in, and the pages not
translated and the sections English no longer has. A page with an SDK table
counts its translated reasons as one more section, reasons, behind while
any reason is (-v names them: lesson/sdk/main).`

// WriteStatus prints the status of list, as Translations returns it, in
// the format StatusFormat describes. It returns how many sections are
// behind, in all languages.
func WriteStatus(w io.Writer, list []Translation, verbose bool) (int, error) {
	langs, total := countSections(list)
	if len(langs) == 0 {
		_, err := fmt.Fprintln(w, "No translations yet.")
		return 0, err
	}
	width := len("language")
	for _, c := range langs {
		width = max(width, len(c.lang))
	}
	fmt.Fprintf(w, "%-*s  %5s  %7s  %6s  %7s\n", width, "language", "pages", "current", "behind", "missing")
	for _, c := range langs {
		fmt.Fprintf(w, "%-*s  %5s  %7d  %6d  %7d\n", width, c.lang, fmt.Sprintf("%d/%d", c.translated, c.pages), c.current, c.behind, c.missing)
	}
	if total == 0 {
		fmt.Fprintln(w, "Every translated section follows the English as it is.")
	} else if !verbose {
		fmt.Fprintf(w, "%s behind English (go run ./docs status -v lists them).\n", SectionsAre(total))
	}
	if !verbose {
		return total, nil
	}
	if err := writeStatusLists(w, list, len(langs)); err != nil {
		return 0, err
	}
	return total, nil
}

// langCounts is one line of the status's table: a language's pages, those
// translated, and its sections current, behind and missing.
type langCounts struct {
	lang                                        string
	pages, translated, current, behind, missing int
}

// countSections sums list by language, the languages in the order list
// first names them, and returns too how many sections are behind in all.
func countSections(list []Translation) ([]*langCounts, int) {
	var langs []*langCounts
	byLang := make(map[string]*langCounts)
	total := 0
	for _, t := range list {
		c := byLang[t.Lang]
		if c == nil {
			c = &langCounts{lang: t.Lang}
			byLang[t.Lang] = c
			langs = append(langs, c)
		}
		c.pages++
		switch t.State {
		case Missing:
			c.missing += len(t.Sections)
		default:
			c.translated++
			c.behind += len(t.Behind)
			c.current += len(t.Sections) - len(t.Behind)
		}
		total += len(t.Behind)
	}
	return langs, total
}

// statusKey is one line of the verbose status's lists: a page, or a
// section of it, and for a section behind, why.
type statusKey struct{ page, id, why string }

// statusLists is what the verbose status lists: the sections behind with
// why, the pages not translated and the sections English no longer has,
// each in page order, and the languages of each line.
type statusLists struct {
	behind, missing, gone []statusKey
	langs                 map[statusKey][]string
}

// listStatus gathers the verbose status's lists from list.
func listStatus(list []Translation) *statusLists {
	s := &statusLists{langs: make(map[statusKey][]string)}
	add := func(keys *[]statusKey, k statusKey, lang string) {
		if s.langs[k] == nil {
			*keys = append(*keys, k)
		}
		s.langs[k] = append(s.langs[k], lang)
	}
	pageAt := make(map[string]int)       // a page's place in the order
	sectionAt := make(map[statusKey]int) // a section's place in its page
	for _, t := range list {
		if _, ok := pageAt[t.Page]; !ok {
			pageAt[t.Page] = len(pageAt)
		}
		for i, id := range t.Sections {
			sectionAt[statusKey{page: t.Page, id: id}] = i
		}
		if t.State == Missing {
			add(&s.missing, statusKey{page: t.Page}, t.Lang)
		}
		for _, b := range t.Behind {
			add(&s.behind, statusKey{t.Page, b.ID, b.Reason()}, t.Lang)
		}
		for _, id := range t.Extra {
			add(&s.gone, statusKey{page: t.Page, id: id}, t.Lang)
		}
	}
	byPlace := func(a, b statusKey) int {
		if c := cmp.Compare(pageAt[a.page], pageAt[b.page]); c != 0 {
			return c
		}
		return cmp.Compare(sectionAt[statusKey{page: a.page, id: a.id}], sectionAt[statusKey{page: b.page, id: b.id}])
	}
	for _, keys := range [][]statusKey{s.behind, s.missing, s.gone} {
		slices.SortStableFunc(keys, byPlace)
	}
	return s
}

// writeStatusLists prints the verbose status's lists of list, a line a
// page or section with the languages it is in (all of them counted, when
// there are more than two of the langs languages).
func writeStatusLists(w io.Writer, list []Translation, langs int) error {
	s := listStatus(list)
	for _, l := range []struct {
		title string
		keys  []statusKey
	}{
		{"Behind (translate each, then go run ./docs stamp LANG PAGE SECTION):", s.behind},
		{"Not translated:", s.missing},
		{"Sections English no longer has (delete them from the translation):", s.gone},
	} {
		if len(l.keys) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", l.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, k := range l.keys {
			where := k.page
			if k.id != "" {
				where += "#" + k.id
			}
			in := strings.Join(s.langs[k], " ")
			if len(s.langs[k]) == langs && langs > 2 {
				in = fmt.Sprintf("all %d languages", langs)
			}
			if k.why != "" {
				where += "\t" + k.why
			}
			fmt.Fprintf(tw, "  %s\t%s\n", where, in)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// SectionsAre returns "1 section is" or "n sections are".
func SectionsAre(n int) string {
	if n == 1 {
		return "1 section is"
	}
	return fmt.Sprintf("%d sections are", n)
}
