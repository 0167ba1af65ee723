package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// versionLength is how many hex digits of the hash a [Version] keeps.
const versionLength = 12

// Version identifies one version of a section of a page's source: a short
// hash of its bytes. A translation records the version of each English
// section it follows, and the version of its own text when it was
// stamped.
func Version(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])[:versionLength]
}

// TopSection names the part of a page before its first level-2 heading:
// its title, its summary and the paragraphs that open it.
const TopSection = "(top)"

// section is one part of a page's source: a level-2 heading and everything
// up to the next one, or the top of the page.
type section struct {
	id      string   // the heading's id, or TopSection
	version string   // Version of the section's text (for the top, with the title and summary)
	text    []byte   // the section's Markdown, from its heading line to the next heading
	numbers []number // the numbers its prose writes in digits (for the top, with the title and summary)
	words   []number // those its prose writes as English words
}

// headingID matches a level-2 heading line and captures its {#id}.
var headingID = regexp.MustCompile(`^## .*\{#([^}\s]+)\}\s*$`)

// splitSections cuts a page into its sections and versions each. The top
// section's version covers the title and summary as well. Lines inside
// fenced code blocks are never headings; a heading without an id, which
// fails the page's render, starts no section.
func splitSections(title, summary string, body []byte) []section {
	var (
		out   []section
		id    = TopSection
		start int // where the current section's text starts in body
		at    int
		fence string
	)
	flush := func(end int) {
		text := body[start:end:end]
		versioned := bytes.TrimSpace(text)
		if id == TopSection {
			versioned = bytes.TrimSpace(fmt.Appendf(nil, "title: %s\nsummary: %s\n%s", title, summary, text))
		}
		said := prose(string(versioned))
		out = append(out, section{id, Version(versioned), text, numbersIn(said), wordNumbersIn(said)})
		start = end
	}
	for line := range strings.Lines(string(body)) {
		if !inFence(line, &fence) && strings.HasPrefix(line, "## ") {
			if m := headingID.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
				flush(at)
				id = m[1]
			}
		}
		at += len(line)
	}
	flush(len(body))
	return out
}

// inFence says whether line, the next of a Markdown text, opens, is in or
// closes a fenced code block; fence is the fence open before it ("" if
// none), and inFence updates it.
func inFence(line string, fence *string) bool {
	trimmed := strings.TrimLeft(line, " ")
	switch {
	case *fence != "":
		if strings.HasPrefix(trimmed, *fence) {
			*fence = ""
		}
		return true
	case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
		*fence = trimmed[:3]
		return true
	}
	return false
}

// recorded is what a translation's record holds of one section: the
// Version of the English section it follows, and the Version of its own
// text when it was stamped ("" in a record that predates it).
type recorded struct{ english, text string }

// parseRecord reads the source: block of a translation's front matter, one
// "section-id: english-version text-version" line per section of the
// English page.
func parseRecord(block string) (map[string]recorded, error) {
	if strings.TrimSpace(block) == "" {
		return nil, fmt.Errorf("a translation must record the English version of each section it follows (source: then one \"  section-id: version\" line each; go run ./docs stamp writes it)")
	}
	if !strings.Contains(block, "\n") {
		return nil, fmt.Errorf("source: %q is not a record of sections (one \"  section-id: version\" line each; go run ./docs stamp writes it)", block)
	}
	rec := make(map[string]recorded)
	for line := range strings.Lines(block) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		id, v, ok := strings.Cut(line, ": ")
		english, text, _ := strings.Cut(v, " ")
		if !ok || len(english) != versionLength || text != "" && len(text) != versionLength {
			return nil, fmt.Errorf("source: line %q is not \"section-id: english-version text-version\" (go run ./docs stamp writes it)", line)
		}
		if _, dup := rec[id]; dup {
			return nil, fmt.Errorf("source: section %s is recorded twice", id)
		}
		rec[id] = recorded{english, text}
	}
	return rec, nil
}

// writeRecord returns the source: block recording en's sections, in page
// order: for each, the English version followed and the version of the
// translation's text then.
func writeRecord(en []section, record map[string]recorded) string {
	var b strings.Builder
	b.WriteString("source:\n")
	for _, s := range en {
		if r, ok := record[s.id]; ok {
			fmt.Fprintf(&b, "  %s: %s", s.id, r.english)
			if r.text != "" {
				b.WriteString(" " + r.text)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Lag says why a section of a translation is behind its English page.
type Lag int

const (
	// Changed: the English section changed since the translation recorded
	// it.
	Changed Lag = iota + 1
	// Untranslated: the translation has no such section (English added it,
	// or renamed its id).
	Untranslated
	// Moved: the translation has the section, but not where the English
	// page now has it among the others.
	Moved
	// Numbers: the record names the English section as it is, but the
	// translation does not write the numbers the English does (a number
	// left stale by an English edit stamped with -force, or mistyped).
	Numbers
)

// String returns the lag's name as status prints it.
func (l Lag) String() string {
	switch l {
	case Changed:
		return "changed"
	case Untranslated:
		return "new"
	case Moved:
		return "moved"
	case Numbers:
		return "numbers"
	}
	return "current"
}

// lag compares a translation's sections with its English page's: which
// English sections it is behind in, and why.
type lag struct {
	behind map[string]Lag
	order  []string // the ids of behind, in the English page's order
	extra  []string // sections of the translation the English page lacks
	twice  []string // ids the translation has more than once
	// numbers holds, for each section both pages have, how the
	// translation's numbers differ from the English ones, if they do.
	numbers map[string]*NumberDiff
}

// compareSections says how the translation tr, whose record is record,
// stands against the English sections en. A section is behind when the
// record does not name its current English version, when the translation
// lacks it, or when the translation has it out of the English order (the
// sections not in a longest common subsequence of the two orders). A
// section otherwise current is behind when its numbers differ from the
// English section's (see numbersIn): the record says what was translated,
// the numbers whether the translation still says it.
func compareSections(en, tr []section, record map[string]recorded) lag {
	l := lag{behind: make(map[string]Lag), numbers: make(map[string]*NumberDiff)}
	inEnglish := make(map[string]bool)
	for _, s := range en {
		inEnglish[s.id] = true
	}
	mine := make(map[string]*section) // each section of tr, the first of its id
	has := make(map[string]bool)
	var common []string // the translation's ids English also has, in its order
	for _, s := range tr {
		switch {
		case has[s.id]:
			l.twice = append(l.twice, s.id)
		case !inEnglish[s.id]:
			l.extra = append(l.extra, s.id)
		default:
			common = append(common, s.id)
			mine[s.id] = &s
		}
		has[s.id] = true
	}
	var enCommon []string
	for _, s := range en {
		if has[s.id] {
			enCommon = append(enCommon, s.id)
		}
	}
	inOrder := longestCommon(enCommon, common)
	for _, s := range en {
		if has[s.id] {
			if d := diffNumbers(&s, mine[s.id]); d != nil {
				l.numbers[s.id] = d
			}
		}
		switch {
		case !has[s.id]:
			l.behind[s.id] = Untranslated
		case record[s.id].english != s.version:
			l.behind[s.id] = Changed
		case !inOrder[s.id]:
			l.behind[s.id] = Moved
		case l.numbers[s.id] != nil:
			l.behind[s.id] = Numbers
		default:
			continue
		}
		l.order = append(l.order, s.id)
	}
	return l
}

// longestCommon returns the ids of a longest common subsequence of a and
// b, two orders of the same distinct ids.
func longestCommon(a, b []string) map[string]bool {
	// n[i][j] is the length of one for a[i:] and b[j:].
	n := make([][]int, len(a)+1)
	for i := range n {
		n[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				n[i][j] = n[i+1][j+1] + 1
			} else {
				n[i][j] = max(n[i+1][j], n[i][j+1])
			}
		}
	}
	in := make(map[string]bool)
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			in[a[i]] = true
			i, j = i+1, j+1
		case n[i+1][j] >= n[i][j+1]:
			i++
		default:
			j++
		}
	}
	return in
}
