package site

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// number is one number written in a section: a run of digits, in any
// script's digits, with the separators between its groups.
type number struct {
	written string // as the section writes it: 7,3 or 1 000
	key     string // the same in every notation: 7.3 or 1000
}

// groupSeparators join the digit groups of one number: a decimal point or
// comma, or a thousands separator (dot, comma, apostrophe, no-break,
// narrow no-break or thin space), in any locale's notation. A plain space
// joins groups only as a thousands separator (see numbersIn), and the
// full-width comma of Chinese and Japanese, which lists numbers, never.
const groupSeparators = ".,'’\u00a0\u202f\u2009"

// codeless matches what a section's prose points at rather than says: a
// link's destination and a heading's id.
var codeless = regexp.MustCompile(`\]\([^)\s]*(\s+"[^"]*")?\)|\{#[^}\s]+\}`)

// prose returns the Markdown text without its code: fenced code blocks,
// directive lines, code spans, link destinations and heading ids. A
// current translated section keeps all of these as its English section
// has them, which the build checks (see compareStructure), so only the
// prose around them can hold a stale number.
func prose(text string) string {
	var b strings.Builder
	fence := ""
	for line := range strings.Lines(text) {
		if !inFence(line, &fence) && !strings.HasPrefix(strings.TrimLeft(line, " "), ":::") {
			b.WriteString(line)
		}
	}
	return codeless.ReplaceAllString(withoutCodeSpans(b.String()), "]")
}

// withoutCodeSpans returns text without its code spans: a run of
// backticks up to the next run of as many, within the paragraph (a span
// may cross a line break). A run that is not closed is kept as text.
func withoutCodeSpans(text string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(text, '`')
		if open < 0 {
			return b.String() + text
		}
		n := backticks(text[open:])
		b.WriteString(text[:open])
		rest := text[open+n:]
		if end := closingRun(rest, n); end >= 0 {
			text = rest[end+n:]
		} else {
			b.WriteString(text[open : open+n])
			text = rest
		}
	}
}

// backticks returns how many backticks s starts with.
func backticks(s string) int {
	return len(s) - len(strings.TrimLeft(s, "`"))
}

// closingRun returns where in s the first run of exactly n backticks
// starts, or -1 if none does before a blank line.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "\n\n"):
			return -1
		case s[i] == '`':
			m := backticks(s[i:])
			if m == n {
				return i
			}
			i += m
		default:
			i++
		}
	}
	return -1
}

// numbersIn returns the numbers that text writes, in order. A number is a
// run of digits (of any script: 7, ７ or ७), and the groups of digits
// joined to it by one of groupSeparators each, or by a plain space before
// exactly three digits when every group is a thousands group. Digits
// inside a word count too: a version (v1.0.17), an issue number (#1804), a
// code (HTTP 404, E42). Numbers written as words (seven, sieben, 七) are
// not numbers here.
func numbersIn(text string) []number {
	var out []number
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsDigit(r) {
			i += size
			continue
		}
		start := i
		groups := []string{}
		var seps []rune
		for {
			g, n := digitRun(text[i:])
			groups = append(groups, g)
			i += n
			sep, size := utf8.DecodeRuneInString(text[i:])
			if !strings.ContainsRune(groupSeparators, sep) && sep != ' ' {
				break
			}
			next, _ := digitRun(text[i+size:])
			if next == "" || sep == ' ' && !spaceGroups(groups, seps, text[i+size:]) {
				break
			}
			seps = append(seps, sep)
			i += size
		}
		out = append(out, number{written: text[start:i], key: numberKey(groups)})
	}
	return out
}

// digitRun returns the digits at the start of s, as ASCII digits, and how
// many bytes they take in s.
func digitRun(s string) (string, int) {
	var b strings.Builder
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		d := digitValue(r)
		if d < 0 {
			break
		}
		b.WriteByte(byte('0' + d))
		n += size
	}
	return b.String(), n
}

// digitValue returns the value of the decimal digit r, of any script, or
// -1 if r is not one. Unicode's decimal digits come in runs of ten from
// zero, so r's value is how far it is from the start of its run, modulo
// ten.
func digitValue(r rune) int {
	if !unicode.IsDigit(r) {
		return -1
	}
	d := 0
	for unicode.IsDigit(r - rune(d) - 1) {
		d++
	}
	return d % 10
}

// spaceGroups says whether a plain space after groups (joined by seps)
// separates thousands before rest: the groups so far are a thousands
// grouping by spaces, and rest starts with exactly three digits.
func spaceGroups(groups []string, seps []rune, rest string) bool {
	next, n := digitRun(rest)
	if len(next) != 3 {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(rest[n:]); digitValue(r) >= 0 {
		return false
	}
	for _, s := range seps {
		if s != ' ' {
			return false
		}
	}
	return thousands(groups)
}

// thousands says whether groups read as one whole number in thousands
// groups: one to three digits, not starting with zero, then three each.
func thousands(groups []string) bool {
	if len(groups[0]) > 3 || groups[0][0] == '0' {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}

// numberKey returns what a number written as groups is in every notation:
// its groups joined, when they read as thousands (1,000, 1.000, 1 000 and
// 1000 are all 1000), and otherwise its groups joined by dots (7,3 and
// 7.3 are both 7.3; a version 1.26.0 stays 1.26.0). Leading zeros go
// (05 is 5).
func numberKey(groups []string) string {
	if len(groups) > 1 && thousands(groups) {
		return strings.Join(groups, "")
	}
	first := strings.TrimLeft(groups[0], "0")
	if first == "" {
		first = "0"
	}
	return strings.Join(append([]string{first}, groups[1:]...), ".")
}

// NumberDiff is how the numbers of a translated section differ from its
// English section's: the numbers each has that the other lacks, as each
// writes them, in order, each once.
type NumberDiff struct {
	English, Translation []string
}

// String returns the difference as status names it: "English 7,
// translation 7,3".
func (d NumberDiff) String() string {
	list := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, " ")
	}
	return "English " + list(d.English) + ", translation " + list(d.Translation)
}

// englishWords are the English words that name a number, as
// [wordNumbersIn] reads them, in any case.
var englishWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
	"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
	"eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
	"sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100", "thousand": "1000",
	"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
	"seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10", "twelfth": "12",
	"once": "1", "twice": "2", "single": "1", "both": "2", "half": "0.5",
	"a": "1", "an": "1", "another": "1", "each": "1", "per": "1",
}

// months are the months' names, as a date in English writes them
// (capitalized: "may" is a verb).
var months = map[string]string{
	"January": "1", "February": "2", "March": "3", "April": "4", "May": "5", "June": "6",
	"July": "7", "August": "8", "September": "9", "October": "10", "November": "11", "December": "12",
}

// wordNumbersIn returns the numbers that the English text writes as words
// (three, twice, third, June), each as its value. A translation may write
// these in digits, as Chinese, Japanese and Korean do for counts and
// dates; Japanese counts even "a line" and "each POST" (1 行, POST 1 回),
// so the articles, each and per count as one. The other way round (7 in
// English, sieben in German) is not recognized, so a translation keeps
// digits where English has them.
func wordNumbersIn(text string) []number {
	var out []number
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		v, ok := months[w]
		if !ok {
			v, ok = englishWords[strings.ToLower(w)]
		}
		if ok {
			out = append(out, number{written: w, key: v})
		}
	}
	return out
}

// diffNumbers compares the numbers the English section en and its
// translation tr write, and returns those that one writes and the other
// does not, or nil if there are none. Each number counts once, however
// often it is written: a translation may name chapter 04 again where the
// English says "the chapter", or once where English repeats it. A number
// of the translation that English lacks in digits matches one English
// writes in words (see [wordNumbersIn]).
func diffNumbers(en, tr *section) *NumberDiff {
	keys := func(lists ...[]number) map[string]bool {
		m := make(map[string]bool)
		for _, l := range lists {
			for _, n := range l {
				m[n.key] = true
			}
		}
		return m
	}
	inEnglish, inTranslation := keys(en.numbers, en.words), keys(tr.numbers)
	lacking := func(list []number, in map[string]bool) []string {
		var out []string
		for _, n := range list {
			if !in[n.key] && !slices.Contains(out, n.written) {
				out = append(out, n.written)
			}
		}
		return out
	}
	d := &NumberDiff{lacking(en.numbers, inTranslation), lacking(tr.numbers, inEnglish)}
	if len(d.English) == 0 && len(d.Translation) == 0 {
		return nil
	}
	return d
}
