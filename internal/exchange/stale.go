package exchange

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shownContext is how many characters of the bytes both lines share a stale
// pin's message shows on each side of the difference; longDiff is how many
// of the differing ones it shows before it elides their middle.
const (
	shownContext = 32
	longDiff     = 80
)

// RefreshCommand is the one command that refreshes every pin derived from
// the chapters, run from the module's root: it runs internal/refresh,
// which runs again the scripts whose inputs changed, with -update's pin.
const RefreshCommand = "go generate ./..."

// RefreshHelp tells what to run when pinned output is stale: the command
// that refreshes every pin, and the one that refreshes the pins of the
// package pkg only, named from the repository's root as [TestPackage] and
// [PinnedBy] name it (./chapters/01-tool-errors), then to review the
// change. Every test that compares output with a pin ends its failure with
// it, most through [Stale] or [PinHelp].
func RefreshHelp(pkg string) string {
	return "If the new output is right, refresh the pins from the repository's root, and review them with git diff:\n" +
		"\t" + RefreshCommand + "\n" +
		"or, for one package's pins only:\n" +
		"\tgo test " + pkg + " -run '^TestScripts$' -update"
}

// Stale explains a stale pin: the output of stream (stdout, stderr) for the
// case, got, differs from want, the bytes of the pin that file names (as
// want/tool-error.jsonl of testdata/scripts/01-tool-errors/modern.txtar,
// from the repository's root). It names the case and
// the first line that differs, shows that line from the pin and from the
// output with the bytes they share elided at a distance, marks the
// differing bytes of the output with carets, and ends with [RefreshHelp]
// for pkg.
func Stale(name, stream, file, want, got, pkg string) string {
	pinned, actual := splitLines(want), splitLines(got)
	first, differ := -1, 0
	for i := range max(len(pinned), len(actual)) {
		if i >= len(pinned) || i >= len(actual) || pinned[i] != actual[i] {
			differ++
			if first < 0 {
				first = i
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "case %s: %s differs from its pin %s", name, stream, file)
	if differ > 1 {
		fmt.Fprintf(&b, " in %d lines, first", differ)
	}
	switch {
	case first >= len(actual):
		fmt.Fprintf(&b, ": %s lacks the pin's line %d:\n\tpinned: %s", stream, first+1, clip(pinned[first]))
	case first >= len(pinned):
		fmt.Fprintf(&b, ": %s has a line %d that the pin lacks:\n\tactual: %s", stream, first+1, clip(actual[first]))
	default:
		p, a := strings.TrimSuffix(pinned[first], "\n"), strings.TrimSuffix(actual[first], "\n")
		switch {
		case p != a:
			fmt.Fprintf(&b, " in line %d at byte %d:\n", first+1, commonPrefix(p, a)+1)
			b.WriteString(markLine(p, a))
		case len(p) < len(pinned[first]):
			fmt.Fprintf(&b, " in line %d: the pin ends it with a newline and %s does not", first+1, stream)
		default:
			fmt.Fprintf(&b, " in line %d: %s ends it with a newline and the pin does not", first+1, stream)
		}
	}
	b.WriteString("\n")
	b.WriteString(RefreshHelp(pkg))
	return b.String()
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// markLine shows the lines pinned and actual, which differ, one above the
// other: the bytes they share before and after the difference cut to
// [shownContext] characters, the differing ones in full unless they are longer
// than [longDiff], and a line of carets under the differing bytes of actual.
func markLine(pinned, actual string) string {
	pre := commonPrefix(pinned, actual)
	suf := commonSuffix(pinned[pre:], actual[pre:])
	before := visible(pinned[:pre])
	after := visible(pinned[len(pinned)-suf:])
	lead := ""
	if r := []rune(before); len(r) > shownContext {
		before, lead = string(r[len(r)-shownContext:]), "…"
	}
	trail := ""
	if r := []rune(after); len(r) > shownContext {
		after, trail = string(r[:shownContext]), "…"
	}
	oldMid := elideMiddle(visible(pinned[pre : len(pinned)-suf]))
	newMid := elideMiddle(visible(actual[pre : len(actual)-suf]))
	const pinnedLabel, actualLabel = "\tpinned: ", "\tactual: "
	var b strings.Builder
	b.WriteString(pinnedLabel + lead + before + oldMid + after + trail + "\n")
	b.WriteString(actualLabel + lead + before + newMid + after + trail + "\n")
	b.WriteString("\t" + strings.Repeat(" ", utf8.RuneCountInString(actualLabel)-1+utf8.RuneCountInString(lead+before)))
	b.WriteString(strings.Repeat("^", max(1, utf8.RuneCountInString(newMid))))
	return b.String()
}

// commonPrefix returns the length of the bytes a and b start with alike,
// cut back to the start of a character.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return n
}

// commonSuffix returns the length of the bytes a and b end with alike,
// cut to the start of a character.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	for n > 0 && !utf8.RuneStart(a[len(a)-n]) {
		n--
	}
	return n
}

// elideMiddle cuts s to [longDiff] characters, eliding its middle.
func elideMiddle(s string) string {
	r := []rune(s)
	if len(r) <= longDiff {
		return s
	}
	return string(r[:longDiff/2]) + "…" + string(r[len(r)-longDiff/2:])
}

// clip cuts a whole line to what a message shows: its first
// [shownContext]+[longDiff] characters.
func clip(s string) string {
	s = visible(strings.TrimSuffix(s, "\n"))
	if r := []rune(s); len(r) > shownContext+longDiff {
		return string(r[:shownContext+longDiff]) + "…"
	}
	return s
}

// visible escapes the characters of s that do not print as one column
// (tabs, control characters, invalid bytes), so that carets under it line
// up.
func visible(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == ' ' || unicode.IsGraphic(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[size:]
	}
	return b.String()
}
