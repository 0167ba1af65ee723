package check

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The leak scan runs over every text a server sends, some of them over a
// MiB long, and Go's regexps without a literal prefix step through every
// byte of it. So a leakPattern finds its first match as its regexp would,
// without running it over the whole text: every alternative holds one of
// a few literals (its needles, found by reading the regexp's syntax), so
// the scan looks for those with strings.Index, case-folded once for a
// (?i) pattern, and tries the alternative, anchored, only at the starts a
// needle allows. Where those anchored matches would read more than twice
// the text (many needles in a long run of bytes the alternative may match),
// or where a rune beyond ASCII may fold to a needle's letter, the pattern's
// regexp runs over the whole text, as before.

// A leakPattern is one kind of internals: a regexp written as its
// alternatives.
type leakPattern struct {
	what    string
	trace   bool           // a stack trace: the code that handled the request failed
	re      *regexp.Regexp // the whole regexp: the flags and the alternatives joined by "|"
	alts    []*alternative
	needles []needle // every alternative's
	fold    bool     // a needle is case-folded
}

// An alternative is one alternative of a leakPattern's regexp.
type alternative struct {
	atStart *regexp.Regexp // \A(?:alt): a match at the start of the text
	after   *regexp.Regexp // \A(?s:.)(?:alt): a match after the first rune, which gives the context of \b and ^
	bytes   byteSet        // every byte a match may hold
}

// A needle is a literal of which every match of its alternative holds one.
type needle struct {
	lit    string  // in lower case when fold
	fold   bool    // it is case-folded: look for it in the lowered text
	before byteSet // the bytes a match may hold before the needle, all ASCII
	width  int     // at most this many bytes before it; -1: no bound
	alt    *alternative
}

// A haystack is a text the scan looks at, and the same in ASCII lower
// case, made on first need.
type haystack struct {
	text, lower string
	lowered     bool
}

// folded returns the text in ASCII lower case.
func (h *haystack) folded() string {
	if !h.lowered {
		h.lower, h.lowered = asciiLower(h.text), true
	}
	return h.lower
}

// newLeakPattern returns the pattern of the regexp flags+alts[0]|alts[1]...
// It panics when an alternative holds no needle, as regexp.MustCompile
// panics on a regexp that does not compile.
func newLeakPattern(what string, trace bool, flags string, alts ...string) *leakPattern {
	p := &leakPattern{what: what, trace: trace, re: regexp.MustCompile(flags + strings.Join(alts, "|"))}
	for _, src := range alts {
		re, err := syntax.Parse(flags+src, syntax.Perl)
		if err != nil {
			panic(err)
		}
		a := &alternative{
			atStart: regexp.MustCompile(`\A(?:` + flags + src + `)`),
			after:   regexp.MustCompile(`\A(?s:.)(?:` + flags + src + `)`),
		}
		reach(re, &a.bytes)
		needles, ok := needlesOf(re)
		if !ok {
			panic(fmt.Sprintf("leak pattern %q: the alternative %q holds no literal of %d bytes or more", what, src, shortestNeedle))
		}
		for _, n := range needles {
			if slices.Contains(n.before[utf8.RuneSelf:], true) {
				panic(fmt.Sprintf("leak pattern %q: the alternative %q may match bytes beyond ASCII before %q", what, src, n.lit))
			}
			n.alt = a
			p.needles = append(p.needles, n)
			p.fold = p.fold || n.fold
		}
		p.alts = append(p.alts, a)
	}
	return p
}

// find returns where p.re first matches h.text, as FindStringIndex does.
//
// The first match starts at the least s where an alternative matches. A
// match holds a needle at some a, and starts at most width bytes before
// it, after bytes of its before set only: so for each needle the starts to
// try are those just before each place it is found. A start tried is not
// tried again for the same needle, and none at or past the best start yet.
func (p *leakPattern) find(h *haystack) []int {
	text := h.text
	if p.fold && slices.ContainsFunc(foldOutsiders, func(r rune) bool { return strings.ContainsRune(text, r) }) {
		return p.re.FindStringIndex(text)
	}
	best := -1
	budget := scanBudget(len(text))
	for _, n := range p.needles {
		hay := text
		if n.fold {
			hay = h.folded()
		}
		next, hi := 0, 0 // the first start not yet tried; the end of the run of n.alt's bytes around a
		for from := 0; from < len(hay); {
			i := strings.Index(hay[from:], n.lit)
			if i < 0 {
				break
			}
			a := from + i
			from = a + 1
			lo := a
			for lo > next && (n.width < 0 || a-lo < n.width) && n.before[text[lo-1]] {
				lo--
			}
			if best >= 0 && lo >= best {
				break
			}
			if a >= hi {
				hi = runEnd(text, a, &n.alt.bytes)
			}
			for s := lo; s <= a && (best < 0 || s < best); s++ {
				if budget -= hi - s + 1; budget < 0 {
					return p.re.FindStringIndex(text)
				}
				if n.alt.matchAt(text, s, hi) >= 0 {
					best = s
					break
				}
			}
			next = a + 1
		}
	}
	if best < 0 {
		return nil
	}
	// The first alternative that matches at best is the one the regexp
	// takes, and its end the match's.
	for _, a := range p.alts {
		if end := a.matchAt(text, best, runEnd(text, best, &a.bytes)); end >= 0 {
			return []int{best, end}
		}
	}
	panic("leak scan: no alternative matches where one did")
}

// scanBudget is how many bytes the anchored matches of one pattern may
// read in a text of n bytes before the scan runs the pattern's regexp over
// it instead: a bound on the time lost on a text made to defeat the needles.
func scanBudget(n int) int { return 2*n + 4096 }

// matchAt returns the end of a's match starting at s, or -1. No match
// starting at s holds the byte at hi, so none reads past it.
//
// The regexp reads from s-1, after a rune it takes as is, so that ^ and \b
// at s see the byte before. It reads that byte as one rune: it is ASCII,
// or not the start of a rune that holds the ASCII (or first) byte at s; a
// byte beyond ASCII is neither a word character nor a newline, whatever
// rune it belongs to, as at hi, where a rune may be cut.
func (a *alternative) matchAt(text string, s, hi int) int {
	end := min(hi+1, len(text))
	if s == 0 {
		if loc := a.atStart.FindStringIndex(text[:end]); loc != nil {
			return loc[1]
		}
		return -1
	}
	if loc := a.after.FindStringIndex(text[s-1 : end]); loc != nil {
		return s - 1 + loc[1]
	}
	return -1
}

// runEnd returns the end of the run of bytes of set that starts at i.
func runEnd(text string, i int, set *byteSet) int {
	for i < len(text) && set[text[i]] {
		i++
	}
	return i
}

// foldOutsiders are the runes beyond ASCII that (?i) matches to an ASCII
// letter (ſ to s, K to k): the lowered text does not show them as the
// letter, so a text that holds one is scanned by the regexps.
var foldOutsiders = func() (runes []rune) {
	for r := 'a'; r <= 'z'; r++ {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				runes = append(runes, f)
			}
		}
	}
	return runes
}()

// asciiLower returns s with its ASCII letters in lower case, every byte
// where it was.
func asciiLower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// byteSet is a set of bytes: those a part of a regexp may match.
type byteSet [256]bool

// add adds the bytes of the runes lo to hi: each ASCII one, and every byte
// beyond ASCII when the range goes past it.
func (s *byteSet) add(lo, hi rune) {
	for r := lo; r <= min(hi, utf8.RuneSelf-1); r++ {
		s[r] = true
	}
	if hi >= utf8.RuneSelf {
		for b := utf8.RuneSelf; b < len(s); b++ {
			s[b] = true
		}
	}
}

// runeWidth returns the bytes of r in UTF-8, for any r up to unicode.MaxRune.
func runeWidth(r rune) int {
	switch {
	case r < 1<<7:
		return 1
	case r < 1<<11:
		return 2
	case r < 1<<16:
		return 3
	}
	return 4
}

// reach adds to set every byte re may match and returns the most bytes it
// may match, or -1 when there is no bound.
func reach(re *syntax.Regexp, set *byteSet) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			w := 0
			for f := r; ; {
				set.add(f, f)
				w = max(w, runeWidth(f))
				if f = unicode.SimpleFold(f); re.Flags&syntax.FoldCase == 0 || f == r {
					break
				}
			}
			n += w
		}
		return n
	case syntax.OpCharClass:
		w := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			set.add(re.Rune[i], re.Rune[i+1])
			w = max(w, runeWidth(re.Rune[i+1]))
		}
		return w
	case syntax.OpAnyCharNotNL:
		set.add(0, '\n'-1)
		set.add('\n'+1, unicode.MaxRune)
		return utf8.UTFMax
	case syntax.OpAnyChar:
		set.add(0, unicode.MaxRune)
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return reach(re.Sub[0], set)
	case syntax.OpStar, syntax.OpPlus:
		reach(re.Sub[0], set)
		return -1
	case syntax.OpRepeat:
		w := reach(re.Sub[0], set)
		if w < 0 || re.Max < 0 {
			return -1
		}
		return w * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			w := reach(sub, set)
			switch {
			case total < 0 || w < 0:
				total = -1
			case re.Op == syntax.OpConcat:
				total += w
			default:
				total = max(total, w)
			}
		}
		return total
	}
	return 0 // the empty match and the assertions: ^, $, \b...
}

const (
	shortestNeedle = 3  // bytes: shorter literals are found too often to help
	mostNeedles    = 64 // of one alternative
)

// needlesOf returns literals of which every match of re holds one, each
// with what re may match before it; ok is false when it finds none. In a
// concatenation, they are the strings of the first run of parts that match
// few strings, none short (the run of ".", "(?:go|py)" and ":" gives
// ".go:" and ".py:"), or the needles of the first part that has some.
func needlesOf(re *syntax.Regexp) (needles []needle, ok bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return needlesOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return needlesOf(re.Sub[0])
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			ns, ok := needlesOf(sub)
			if !ok {
				return nil, false
			}
			needles = append(needles, ns...)
		}
		return needles, true
	case syntax.OpLiteral, syntax.OpConcat:
		parts := re.Sub
		if re.Op == syntax.OpLiteral {
			parts = []*syntax.Regexp{re}
		}
		var before byteSet
		width := 0
		for i, sub := range parts {
			if lits, fold := literals(parts[i:]); lits != nil {
				for _, lit := range lits {
					needles = append(needles, needle{lit: lit, fold: fold, before: before, width: width})
				}
				return needles, true
			}
			if sub.Op != syntax.OpLiteral {
				if ns, ok := needlesOf(sub); ok {
					for i := range ns {
						for b, in := range before {
							ns[i].before[b] = ns[i].before[b] || in
						}
						ns[i].width = addWidths(width, ns[i].width)
					}
					return ns, true
				}
			}
			width = addWidths(width, reach(sub, &before))
		}
	}
	return nil, false
}

func addWidths(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}

// literals returns the strings the longest run of parts at the start of
// subs may match, when there are at most mostNeedles of them and none
// shorter than shortestNeedle (nil otherwise), those that start with
// another left out. When one part is case-folded, fold is true and the
// strings are in lower case.
func literals(subs []*syntax.Regexp) (lits []string, fold bool) {
	lits = []string{""}
	for _, sub := range subs {
		strs, f, ok := fewStrings(sub)
		if !ok || len(lits)*len(strs) > mostNeedles {
			break
		}
		lits, fold = product(lits, strs), fold || f
	}
	if fold {
		for i, s := range lits {
			lits[i] = asciiLower(s)
		}
	}
	slices.Sort(lits)
	lits = slices.Compact(lits)
	kept := lits[:0]
	for _, s := range lits {
		if len(kept) > 0 && strings.HasPrefix(s, kept[len(kept)-1]) {
			continue
		}
		if len(s) < shortestNeedle {
			return nil, false
		}
		kept = append(kept, s)
	}
	return kept, fold
}

// fewStrings returns the strings re matches, when they are few; fold is true
// when re is case-folded, and they then stand for their other cases too.
func fewStrings(re *syntax.Regexp) (strs []string, fold, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold = re.Flags&syntax.FoldCase != 0
		s := string(re.Rune)
		if fold && !isASCII(s) {
			return nil, false, false
		}
		return []string{s}, fold, true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r >= utf8.RuneSelf || len(strs) == mostNeedles {
					return nil, false, false
				}
				strs = append(strs, string(r))
			}
		}
		return strs, false, true
	case syntax.OpEmptyMatch:
		return []string{""}, false, true
	case syntax.OpCapture:
		return fewStrings(re.Sub[0])
	case syntax.OpQuest:
		strs, fold, ok = fewStrings(re.Sub[0])
		return append(strs, ""), fold, ok
	case syntax.OpConcat, syntax.OpAlternate:
		strs = []string{""}
		if re.Op == syntax.OpAlternate {
			strs = nil
		}
		for _, sub := range re.Sub {
			s, f, ok := fewStrings(sub)
			if !ok {
				return nil, false, false
			}
			if re.Op == syntax.OpConcat {
				strs = product(strs, s)
			} else {
				strs = append(strs, s...)
			}
			if fold = fold || f; len(strs) > mostNeedles {
				return nil, false, false
			}
		}
		return strs, fold, true
	}
	return nil, false, false
}

// product returns every string of a followed by every string of b.
func product(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
