package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Stamped is what [StampPage] does to one translated page.
type Stamped struct {
	File     string // the page, in the docs tree: tool-errors/fr.md
	Data     []byte // the page with its new record
	Sections []SectionStamp
}

// SectionStamp is one section [StampPage] records.
type SectionStamp struct {
	ID string
	// Old is the English version the record named before ("" if none),
	// New the one it names now.
	Old, New string
	// Forced: the translated text had not changed since English moved.
	Forced bool
	// Moved: the section stays behind, because the translation has it
	// elsewhere than the English page; After names the section it belongs
	// after.
	Moved bool
	After string
}

// String returns the line stamp prints for s: "wire: ddef2bad1cf4 →
// 51be0c7f3d10".
func (s SectionStamp) String() string {
	var line string
	switch {
	case s.Old == "":
		line = fmt.Sprintf("%s: (none) → %s", s.ID, s.New)
	case s.Old == s.New:
		line = fmt.Sprintf("%s: %s (already current)", s.ID, s.New)
	default:
		line = fmt.Sprintf("%s: %s → %s", s.ID, s.Old, s.New)
	}
	if s.Forced {
		line += " (forced: its text did not change)"
	}
	if s.Moved {
		line += fmt.Sprintf("; still behind, out of the English order: move it to right after section %s", s.After)
	}
	return line
}

// Stamp returns the translation of slug into lang with its record brought
// up to date, as [StampPage] without force does.
func Stamp(docs fs.FS, slug, lang string, ids ...string) ([]byte, error) {
	s, err := StampPage(docs, slug, lang, false, ids...)
	if err != nil {
		return nil, err
	}
	return s.Data, nil
}

// StampPage brings the record of the translation of slug into lang up to
// date: the sections named by ids, or all the sections it has when ids is
// empty, are recorded as following the English page as it is now, each
// with the version of its own text. Run it once those sections say again
// what the English says.
//
// It refuses a section whose English text changed while its translated
// text stayed as it was when last stamped, since that section was not
// translated again; force stamps it anyway (for an English edit that
// needs none in translation). It refuses, even with force, a section
// whose numbers differ from the English section's (see numbersIn): a
// translation stamped so would still be behind, and a stale number is the
// slip force would otherwise hide. A section the record does not hold
// yet, or holds without the version of its text, is stamped as it is. A
// record that cannot be read (such as "source: pending") is replaced.
func StampPage(docs fs.FS, slug, lang string, force bool, ids ...string) (*Stamped, error) {
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
		record = make(map[string]recorded)
	}
	tr := splitSections(meta["title"], meta["summary"], body)
	if len(ids) == 0 {
		for _, s := range en.sections {
			if findSection(tr, s.id) != nil {
				ids = append(ids, s.id)
			}
		}
	}
	out := &Stamped{File: file}
	var refused []string
	for _, id := range ids {
		e, t := findSection(en.sections, id), findSection(tr, id)
		switch {
		case e == nil:
			var all []string
			for _, s := range en.sections {
				all = append(all, s.id)
			}
			return nil, fmt.Errorf("%s has no section %s (its sections: %s)", en.file, id, strings.Join(all, " "))
		case t == nil:
			return nil, fmt.Errorf("%s has no section %s to stamp: translate it first, under a heading ending in {#%s} where %s has it", file, id, id, en.file)
		}
		st, ok := stampSection(record, id, e, t, force)
		if !ok {
			refused = append(refused, fmt.Sprintf("section %s: the English changed (%s → %s) but the translation did not since it was stamped", id, st.Old, st.New))
			continue
		}
		out.Sections = append(out.Sections, st)
	}
	lag := compareSections(en.sections, tr, record)
	if err := refuseStamps(file, lang, refused, out.Sections, lag.numbers); err != nil {
		return nil, err
	}
	for i := range out.Sections {
		s := &out.Sections[i]
		if lag.behind[s.ID] == Moved {
			s.Moved = true
			s.After = en.sections[slices.IndexFunc(en.sections, func(x section) bool { return x.id == s.ID })-1].id
		}
	}
	out.Data = withRecord(b, body, writeRecord(en.sections, record))
	return out, nil
}

// findSection returns the section of list with the given id, or nil.
func findSection(list []section, id string) *section {
	if i := slices.IndexFunc(list, func(s section) bool { return s.id == id }); i >= 0 {
		return &list[i]
	}
	return nil
}

// stampSection records in record that the translated section t follows
// the English section e, both with the given id, and returns what it
// stamped. It stamps nothing, and returns false, when the English changed
// while the translation stayed as it was when last stamped, unless force.
func stampSection(record map[string]recorded, id string, e, t *section, force bool) (SectionStamp, bool) {
	old := record[id]
	st := SectionStamp{ID: id, Old: old.english, New: e.version}
	if old.english != "" && old.english != e.version && old.text == t.version {
		if !force {
			return st, false
		}
		st.Forced = true
	}
	record[id] = recorded{e.version, t.version}
	return st, true
}

// refuseStamps returns the error that stamps nothing in file, the
// translation into lang, with what to do: for the sections refused, and
// for each section of stamped whose numbers still differ from the
// English (numbers holds how, by section); or nil if there is none.
func refuseStamps(file, lang string, refused []string, stamped []SectionStamp, numbers map[string]*NumberDiff) error {
	var hints []string
	if len(refused) > 0 {
		hints = append(hints, fmt.Sprintf("translate each section again, then stamp it; if the English edit needs no change in %s (a typo fix, say), stamp -force records it as it is", lang))
	}
	stale := false
	for _, st := range stamped {
		if d := numbers[st.ID]; d != nil {
			refused = append(refused, fmt.Sprintf("section %s: its numbers differ from the English (%s)", st.ID, d))
			stale = true
		}
	}
	if stale {
		hints = append(hints, "write each number the English section writes, and no other (7.3 and 7,3 are the same number, 1,000 and 1 000 too); -force stamps no section whose numbers differ")
	}
	if len(refused) > 0 {
		return fmt.Errorf("%s: nothing stamped:\n\t%s\n%s", file, strings.Join(refused, "\n\t"), strings.Join(hints, "\n"))
	}
	return nil
}

// withRecord returns the page b, whose Markdown after its front matter is
// body, with record, a source: block (see writeRecord), in place of the
// source: block its front matter had, if any, at the end of the front
// matter.
func withRecord(b, body []byte, record string) []byte {
	var data bytes.Buffer
	data.WriteString("---\n")
	skip := false // inside the old source: block
	for line := range strings.Lines(string(b[len("---\n") : len(b)-len(body)-len("---\n")])) {
		if skip && strings.HasPrefix(line, "  ") {
			continue
		}
		skip = strings.HasPrefix(line, "source:")
		if !skip {
			data.WriteString(line)
		}
	}
	data.WriteString(record)
	data.WriteString("---\n")
	data.Write(body)
	return data.Bytes()
}
