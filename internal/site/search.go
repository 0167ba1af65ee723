package site

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// searchEntry is one section of a page in the search index, which holds
// the pages of one language only: assets/search-<code>.js.
type searchEntry struct {
	Page    string `json:"p"`
	Heading string `json:"h"`
	URL     string `json:"u"`
	Text    string `json:"t"`
	// Head and Words are the searchTokens of the page title and heading,
	// and of the text, each once, joined by spaces.
	Head  string `json:"k"`
	Words string `json:"w"`
}

// sections splits a rendered page into search entries, one per heading.
func sections(p *page) []searchEntry {
	src := p.body
	cur := searchEntry{Page: p.src.title, URL: p.url}
	var out []searchEntry
	var text []string
	flush := func() {
		cur.Text = strings.Join(text, " ")
		if cur.Text != "" || cur.Heading != "" {
			cur.Head = strings.Join(searchTokens(cur.Page+" "+cur.Heading), " ")
			cur.Words = strings.Join(searchTokens(cur.Text), " ")
			out = append(out, cur)
		}
		text = nil
	}
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if id, ok := h.AttributeString("id"); ok {
				flush()
				cur = searchEntry{Page: p.src.title, Heading: plainText(h, src), URL: p.url + "#" + string(id.([]byte))}
				continue
			}
		}
		if t := plainText(n, src); t != "" {
			text = append(text, t)
		}
	}
	flush()
	return out
}

// searchScript is the search index as a script that sets
// window.guideSearchIndex, so that it loads from file:// too.
func searchScript(entries []searchEntry) ([]byte, error) {
	b, err := json.Marshal(entries)
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.guideSearchIndex = "), b...), ";\n"...), nil
}

// searchTokens splits a text into what the search matches, each token
// once, in order of first appearance. The theme's script splits a query
// the same way (tokens in site.js), and finds the sections in which every
// token of the query begins a token of the section.
//
// A token is a run of letters, marks and digits (so that Devanagari's
// vowel signs and viramas do not split a word), in lower case, with
// full-width Latin letters and digits made ASCII. Han, kana and Hangul are
// written without spaces between words: a run of them gives each pair of
// neighbouring characters and its last character, so that a query of one
// or two characters, or a longer one cut into pairs the same way, finds
// the run wherever it holds them.
func searchTokens(text string) []string {
	var out []string
	seen := make(map[string]bool)
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	var run []rune // the current run of word characters
	flush := func() {
		for len(run) > 0 {
			cjk := isCJK(run[0])
			n := 1
			for n < len(run) && isCJK(run[n]) == cjk {
				n++
			}
			part := run[:n]
			run = run[n:]
			if !cjk {
				add(string(part))
				continue
			}
			for i := 0; i+1 < len(part); i++ {
				add(string(part[i : i+2]))
			}
			add(string(part[len(part)-1:]))
		}
	}
	for _, r := range text {
		if r >= '！' && r <= '～' { // full-width ASCII
			r -= '！' - '!'
		}
		if isWordRune(r) {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			} else if r >= utf8.RuneSelf {
				r = unicode.ToLower(r)
			}
			run = append(run, r)
			continue
		}
		flush()
	}
	flush()
	return slices.Clip(out)
}

// isWordRune reports whether r belongs in a token: a letter, a mark, a
// digit, or a zero-width (non-)joiner, which Indic scripts write inside
// words.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf { // most of every page, even in other scripts
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N) || r == '\u200c' || r == '\u200d'
}

// isCJK reports whether r is written without spaces between words: Han,
// hiragana, katakana (with its prolonged sound mark, which Unicode counts
// as common to both kana) and Hangul.
func isCJK(r rune) bool {
	if r < '\u1100' { // below Hangul Jamo, the first of these scripts
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー'
}
