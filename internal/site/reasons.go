package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// ReasonsSection is the pseudo-section under which status and stamp name
// the translated reasons of a page's :::sdks tables: your-sdk#reasons, and
// one reason as reasons/LESSON/SDK/MAIN.
const ReasonsSection = "reasons"

// reasonsFile returns the file of the docs tree that holds the reasons of
// page slug translated into lang: your-sdk/reasons/ja.json. It is a JSON
// object with an entry per reason, keyed as [reasonKey] keys it:
//
//	"tool-error/mcpgo/01-tool-errors": {"source": "4f0c2a9e71d3 b81e6d05c2aa", "text": "…"}
//
// source records, as a section's line in a page's source: block does, the
// Version of the English reason the text follows and the Version of the
// text when it was stamped; stamp writes it.
func reasonsFile(slug, lang string) string { return slug + "/" + ReasonsSection + "/" + lang + ".json" }

// reasonKey returns how a reasons file keys the reason of an SDK's main in
// a lesson: lesson/sdk/main, as tool-error/mcpgo/01-tool-errors.
func reasonKey(lesson, sdk, main string) string { return lesson + "/" + sdk + "/" + main }

// englishReason is one reason of a lessons file, in English.
type englishReason struct{ key, text string }

// englishReasons returns the reasons of every lessons file that the
// English page body includes with :::sdks, in the order its tables show
// them.
func englishReasons(root fs.FS, body []byte) ([]englishReason, error) {
	var out []englishReason
	fence := ""
	for line := range strings.Lines(string(body)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), ":::sdks ")
		if inFence(line, &fence) || !ok {
			continue
		}
		file := strings.TrimSpace(rest)
		if args, err := splitArgs(rest); err == nil && len(args) == 1 {
			file = args[0]
		}
		src, err := fs.ReadFile(root, file)
		if err != nil {
			return nil, err
		}
		var ls lessons
		if err := json.Unmarshal(src, &ls); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for _, l := range ls.Lessons {
			for _, sdk := range ls.SDKs {
				m := l.Mains[sdk.Dir]
				for _, main := range []string{m.Default, m.Fix} {
					key := reasonKey(l.ID, sdk.Dir, main)
					text := strings.TrimSpace(m.Differs[main])
					if main != "" && text != "" && !slices.ContainsFunc(out, func(e englishReason) bool { return e.key == key }) {
						out = append(out, englishReason{key, text})
					}
				}
			}
		}
	}
	return out, nil
}

// pageReasons returns the English reasons of the :::sdks tables of page
// slug, reading the page from docs and the lessons files from root.
func pageReasons(root, docs fs.FS, slug string) ([]englishReason, error) {
	en, err := loadSource(docs, slug, SourceLanguage)
	if err != nil {
		return nil, err
	}
	rs, err := englishReasons(root, en.body)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", en.file, err)
	}
	return rs, nil
}

// translatedReason is one entry of a reasons file: the translation, and
// what its source records.
type translatedReason struct {
	text string
	rec  recorded
}

// reasonEntry is a translatedReason as its file writes it.
type reasonEntry struct {
	Source string `json:"source,omitempty"`
	Text   string `json:"text"`
}

// loadReasons reads the reasons file of slug in lang: its entries by key,
// and their keys in the file's order. A missing file has none.
func loadReasons(docs fs.FS, slug, lang string) (map[string]translatedReason, []string, error) {
	file := reasonsFile(slug, lang)
	src, err := fs.ReadFile(docs, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s (each entry \"lesson/sdk/main\": {\"text\": \"…\"}, whose source go run ./docs stamp writes)", file, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fail("not a JSON object")
	}
	out := make(map[string]translatedReason)
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fail("%v", err)
		}
		key := tok.(string)
		var e reasonEntry
		if err := dec.Decode(&e); err != nil {
			return nil, nil, fail("reason %s: %v", key, err)
		}
		if _, dup := out[key]; dup {
			return nil, nil, fail("reason %s is there twice", key)
		}
		english, text, _ := strings.Cut(e.Source, " ")
		if e.Source != "" && (len(english) != versionLength || len(text) != versionLength) {
			return nil, nil, fail("reason %s: source %q is not \"english-version text-version\"", key, e.Source)
		}
		out[key] = translatedReason{strings.TrimSpace(e.Text), recorded{english, text}}
		order = append(order, key)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fail("%v", err)
	}
	return out, order, nil
}

// reasonLag says how the translation t of the English reason en stands:
// 0 when it follows en as it is, Untranslated when there is none (ok is
// false, or its text is empty), Changed when its source names another
// English text (or none), and Numbers when it does not write en's numbers
// (with how they differ), as a section's are judged.
func reasonLag(en string, t translatedReason, ok bool) (Lag, *NumberDiff) {
	switch {
	case !ok || t.text == "":
		return Untranslated, nil
	case t.rec.english != Version([]byte(en)):
		return Changed, nil
	}
	if d := diffNumbers(&section{numbers: numbersIn(en), words: wordNumbersIn(en)}, &section{numbers: numbersIn(t.text)}); d != nil {
		return Numbers, d
	}
	return 0, nil
}

// translateReason gives c, a cell of an :::sdks table on a translated
// page, the translation of its reason, keyed key, when the page's reasons
// file has one that follows the English reason as it is; otherwise c
// keeps the English one and is marked as shown in English.
func (r *resolver) translateReason(c *sdkCell, key string) error {
	if c.reason == "" || r.lang == "" || r.lang == SourceLanguage || r.docs == nil {
		return nil
	}
	file := reasonsFile(r.slug, r.lang)
	if r.reasons == nil {
		r.reasons = make(map[string]map[string]translatedReason)
	}
	tr, ok := r.reasons[file]
	if !ok {
		var err error
		if tr, _, err = loadReasons(r.docs, r.slug, r.lang); err != nil {
			return err
		}
		r.reasons[file] = tr
	}
	t, ok := tr[key]
	if lag, _ := reasonLag(c.reason, t, ok); lag != 0 {
		c.english = true
		return nil
	}
	c.reason = t.text
	return nil
}

// ReasonBehind is one translated reason that does not follow its English
// reason as it is.
type ReasonBehind struct {
	Key     string // lesson/sdk/main
	Why     Lag
	Numbers *NumberDiff // when Why is Numbers
}

// AddReasons adds to list, as [Translations] returns it from the docs
// tree docs, the pseudo-section [ReasonsSection] of each page whose
// English includes an :::sdks table, reading the lessons files from root:
// behind while any translated reason does not follow its English reason as
// it is ([SectionBehind.Reasons] names them), and an Extra for each
// reason the English no longer has.
func AddReasons(list []Translation, root, docs fs.FS) error {
	english := make(map[string][]englishReason) // by page
	for i := range list {
		t := &list[i]
		rs, ok := english[t.Page]
		if !ok {
			var err error
			if rs, err = pageReasons(root, docs, t.Page); err != nil {
				return err
			}
			english[t.Page] = rs
		}
		if len(rs) == 0 {
			continue
		}
		t.Sections = append(t.Sections, ReasonsSection)
		if t.State == Missing {
			continue
		}
		tr, order, err := loadReasons(docs, t.Page, t.Lang)
		if err != nil {
			return err
		}
		b := SectionBehind{ID: ReasonsSection, Of: len(rs)}
		for _, e := range rs {
			rt, ok := tr[e.key]
			if lag, d := reasonLag(e.text, rt, ok); lag != 0 {
				b.Reasons = append(b.Reasons, ReasonBehind{e.key, lag, d})
			}
		}
		for _, key := range order {
			if !slices.ContainsFunc(rs, func(e englishReason) bool { return e.key == key }) {
				t.Extra = append(t.Extra, ReasonsSection+"/"+key)
			}
		}
		if len(b.Reasons) > 0 {
			b.Why = b.Reasons[0].Why
			t.Behind = append(t.Behind, b)
			t.State = Behind
		}
	}
	return nil
}

// reasonsBehind returns why the reasons of a page are behind, as status
// prints it: the keys behind, by lag, or "all N" when every one of the
// page's of reasons is: "changed (wrapped/gosdk/02-protocol-errors-wrapped);
// numbers (deadline/mcpgo/04-handler-failures: English 32603, translation
// 32630)", "new (all 30)".
func reasonsBehind(list []ReasonBehind, of int) string {
	var parts []string
	for _, lag := range []Lag{Changed, Untranslated, Numbers} {
		var keys []string
		for _, r := range list {
			switch {
			case r.Why != lag:
			case lag == Numbers:
				keys = append(keys, fmt.Sprintf("%s: %s", r.Key, r.Numbers))
			default:
				keys = append(keys, r.Key)
			}
		}
		switch {
		case len(keys) == 0:
		case len(keys) == of && of > 1 && lag != Numbers:
			parts = append(parts, fmt.Sprintf("%s (all %d)", lag, of))
		default:
			parts = append(parts, fmt.Sprintf("%s (%s)", lag, strings.Join(keys, ", ")))
		}
	}
	return strings.Join(parts, "; ")
}
