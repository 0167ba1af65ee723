package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// StampTranslation stamps the translation of slug into lang, reading the
// docs tree docs and, for the reasons, the lessons files in root: the
// sections ids names, as [StampPage] does, and its reasons as
// [StampReasons] does, for an id of [ReasonsSection] (every reason its
// reasons file holds) or reasons/KEY (that one). With no ids it stamps
// every section and every reason the translation has. It returns what to
// write, the page first; it returns nothing if any part is refused.
func StampTranslation(root, docs fs.FS, slug, lang string, force bool, ids ...string) ([]*Stamped, error) {
	var sections, keys []string
	all, reasons := len(ids) == 0, false
	for _, id := range ids {
		switch key, ok := strings.CutPrefix(id, ReasonsSection+"/"); {
		case id == ReasonsSection:
			reasons = true
		case ok:
			keys = append(keys, key)
		default:
			sections = append(sections, id)
		}
	}
	var out []*Stamped
	if all || len(sections) > 0 {
		s, err := StampPage(docs, slug, lang, force, sections...)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if all {
		rs, err := pageReasons(root, docs, slug)
		if err != nil {
			return nil, err
		}
		tr, _, err := loadReasons(docs, slug, lang)
		reasons = len(rs) > 0 && (err != nil || len(tr) > 0)
	}
	if reasons || len(keys) > 0 {
		if reasons {
			keys = nil
		}
		s, err := StampReasons(root, docs, slug, lang, force, keys...)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// StampReasons records, in the reasons file of slug in lang, that the
// translated reasons keys names (every one the file holds for a reason the
// English has, when keys is empty) follow the English reasons of the
// page's :::sdks tables as they are now, each with the Version of its own
// text. As [StampPage] does for a section, it refuses a reason whose
// English changed while its translation stayed as it was when last
// stamped, unless force, and, even with force, one whose numbers differ
// from the English reason's.
func StampReasons(root, docs fs.FS, slug, lang string, force bool, keys ...string) (*Stamped, error) {
	if lang == SourceLanguage {
		return nil, fmt.Errorf("%s is the source language: its reasons are the lessons files'", lang)
	}
	rs, err := pageReasons(root, docs, slug)
	if err != nil {
		return nil, err
	}
	enFile, file := slug+"/"+SourceLanguage+".md", reasonsFile(slug, lang)
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s includes no :::sdks table: %s has no reasons to stamp", enFile, slug)
	}
	tr, order, err := loadReasons(docs, slug, lang)
	if err != nil {
		return nil, err
	}
	if tr == nil {
		return nil, fmt.Errorf("%s does not exist: translate the reasons there first, an entry \"lesson/sdk/main\": {\"text\": \"…\"} each (go run ./docs status -v names them)", file)
	}
	every := len(keys) == 0
	english := make(map[string]string)
	for _, e := range rs {
		english[e.key] = e.text
		if t, ok := tr[e.key]; every && ok && t.text != "" {
			keys = append(keys, e.key)
		}
	}
	out := &Stamped{File: file}
	var refused, hints []string
	unchanged, stale := false, false
	for _, key := range keys {
		text, ok := english[key]
		t, has := tr[key]
		switch {
		case !ok:
			var all []string
			for _, e := range rs {
				all = append(all, e.key)
			}
			return nil, fmt.Errorf("%s has no reason %s (its reasons: %s)", enFile, key, strings.Join(all, " "))
		case !has || t.text == "":
			return nil, fmt.Errorf("%s has no translation of reason %s to stamp: add \"%s\": {\"text\": \"…\"} first", file, key, key)
		}
		st := SectionStamp{ID: ReasonsSection + "/" + key, Old: t.rec.english, New: Version([]byte(text))}
		own := Version([]byte(t.text))
		if st.Old != "" && st.Old != st.New && t.rec.text == own {
			if !force {
				refused = append(refused, fmt.Sprintf("reason %s: the English changed (%s → %s) but the translation did not since it was stamped", key, st.Old, st.New))
				unchanged = true
				continue
			}
			st.Forced = true
		}
		t.rec = recorded{st.New, own}
		tr[key] = t
		if _, d := reasonLag(text, t, true); d != nil {
			refused = append(refused, fmt.Sprintf("reason %s: its numbers differ from the English (%s)", key, d))
			stale = true
		}
		out.Sections = append(out.Sections, st)
	}
	if unchanged {
		hints = append(hints, fmt.Sprintf("translate each reason again, then stamp it; if the English edit needs no change in %s, stamp -force records it as it is", lang))
	}
	if stale {
		hints = append(hints, "write each number the English reason writes, and no other; -force stamps no reason whose numbers differ")
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("%s: nothing stamped:\n\t%s\n%s", file, strings.Join(refused, "\n\t"), strings.Join(hints, "\n"))
	}
	out.Data = writeReasons(rs, tr, order)
	return out, nil
}

// writeReasons returns the reasons file holding tr: an entry a line, the
// English reasons rs's first, in their order, then those the English no
// longer has, in the file's order.
func writeReasons(rs []englishReason, tr map[string]translatedReason, order []string) []byte {
	var keys []string
	for _, e := range rs {
		if _, ok := tr[e.key]; ok {
			keys = append(keys, e.key)
		}
	}
	for _, key := range order {
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	var b bytes.Buffer
	b.WriteString("{")
	for i, key := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		t, source := tr[key], ""
		if t.rec.english != "" {
			source = t.rec.english + " " + t.rec.text
		}
		fmt.Fprintf(&b, "\n  %s: {\"source\": %s, \"text\": %s}", jsonText(key), jsonText(source), jsonText(t.text))
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

// jsonText returns s as a JSON string, with <, > and & as they are.
func jsonText(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
