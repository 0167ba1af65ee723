package check

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// A leak is text in an answer that shows the server's internals: what
// the model or the user reads should never hold a stack trace, a query or
// the path of a source file.
type leak struct {
	what  string // "a Go panic trace"
	quote string // the text that shows it, shortened
	trace bool   // a stack trace
}

// leakPatterns are the kinds of internals the scan finds, in the order it
// reports them. Each has hints: text it matches holds one of them, in
// lower case, so that a long text holding none is passed over at once.
var leakPatterns = []struct {
	what  string
	re    *regexp.Regexp
	hints []string
	trace bool // a stack trace: the code that handled the request failed
}{
	{"a Go panic trace", regexp.MustCompile(`(?m)(^|\b)panic: .+|goroutine \d+ \[[a-z ]+\]:|runtime/debug\.Stack|runtime\.gopanic`),
		[]string{"panic: ", "goroutine ", "runtime/debug.stack", "runtime.gopanic"}, true},
	{"a Python traceback", regexp.MustCompile(`Traceback \(most recent call last\)|File "[^"]+", line \d+`),
		[]string{"traceback (most recent call last)", `file "`}, true},
	{"a JavaScript stack", regexp.MustCompile(`(?m)^\s*at (?:async )?[\w$.<>\[\] ]*\(?(?:file://)?[\w/\\:.@-]+\.[cm]?[jt]sx?:\d+:\d+\)?`),
		[]string{"at "}, true},
	{"a Java stack", regexp.MustCompile(`\bat [\w$]+(?:\.[\w$<>]+)+\((?:[\w$]+\.(?:java|kt|scala)(?::\d+)?|Native Method|Unknown Source)\)|Exception in thread "|\b(?:java|javax|jakarta)\.[\w.]+(?:Exception|Error)\b`),
		[]string{"at ", `exception in thread "`, "java", "jakarta."}, true},
	{"an SQL statement", regexp.MustCompile(`\b(?:SELECT\s+[\w*,. ()"]+\s+FROM|INSERT\s+INTO|UPDATE\s+[\w."]+\s+SET|DELETE\s+FROM)\s+[\w."]+`), // as drivers print them: in capitals
		[]string{"select", "insert", "update", "delete"}, false},
	{"a database driver's error", regexp.MustCompile(`(?i)\bSQLSTATE\b|\bpq: |\bORA-\d{5}\b|\bError \d{4} \(\w{5}\)|\bsqlite3?\b.*error|syntax error at or near|no such table:|no such column:|duplicate key value violates|violates (?:foreign key|unique|not-null) constraint|psycopg2?\.|sqlalchemy\.exc|\bSequelize\w*Error\b|\bPrismaClient\w*Error\b`),
		[]string{"sqlstate", "pq: ", "ora-", "error ", "sqlite", "syntax error at or near", "no such table:", "no such column:", "duplicate key value violates", "violates ", "psycopg", "sqlalchemy.exc", "sequelize", "prismaclient"}, false},
	{"a source path with a line number", regexp.MustCompile(`(?:[A-Za-z]:\\|/)?(?:[\w.@-]+[/\\])+[\w.-]+\.(?:` + strings.Join(sourceExts, "|") + `):\d+`),
		sourceHints(), false},
}

// sourceExts are the extensions of the source files whose paths, with a
// line number, the scan finds.
var sourceExts = []string{"go", "py", "js", "mjs", "cjs", "ts", "java", "kt", "rb", "rs", "cs", "php", "c", "cc", "cpp", "h", "swift", "scala", "ex", "exs"}

// sourceHints returns the hints of a source path with a line number: an
// extension and a colon.
func sourceHints() []string {
	var h []string
	for _, e := range sourceExts {
		h = append(h, "."+e+":")
	}
	return h
}

// scanLeaks returns the first internals each text shows, by kind, once
// the strings the check itself sent, which the server may echo, are taken
// out of it.
func scanLeaks(texts, sent []string) []leak {
	var leaks []leak
	seen := map[string]bool{}
	for _, text := range texts {
		text = removeEchoes(text, sent)
		lower := strings.ToLower(text)
		for _, p := range leakPatterns {
			if seen[p.what] || !slices.ContainsFunc(p.hints, func(h string) bool { return strings.Contains(lower, h) }) {
				continue
			}
			loc := p.re.FindStringIndex(text)
			if loc == nil {
				continue
			}
			seen[p.what] = true
			leaks = append(leaks, leak{p.what, excerpt(text, loc[0], loc[1]), p.trace})
		}
	}
	return leaks
}

// stackTrace returns the first stack trace the texts show, the strings
// the check sent taken out; ok is false when they show none.
func stackTrace(texts, sent []string) (l leak, ok bool) {
	for _, l := range scanLeaks(texts, sent) {
		if l.trace {
			return l, true
		}
	}
	return leak{}, false
}

// removeEchoes blanks out of text every string of sent long enough to
// matter: what the server repeats of the request is not its internals.
func removeEchoes(text string, sent []string) string {
	for _, s := range sent {
		if len(s) >= 4 {
			text = strings.ReplaceAll(text, s, " ")
		}
	}
	return text
}

// excerpt returns text[i:j] with a little context, on one line, shortened.
func excerpt(text string, i, j int) string {
	const context, most = 20, 120
	start, end := max(0, i-context), min(len(text), j+context)
	for start > 0 && start < len(text) && !isRuneStart(text[start]) {
		start--
	}
	for end < len(text) && !isRuneStart(text[end]) {
		end++
	}
	s := strings.Join(strings.Fields(text[start:end]), " ")
	return shorten(s, most)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// shorten cuts s to at most n bytes, on a rune boundary, ending it with "…" when cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// texts returns every string in a JSON text, its object keys aside, or the
// text itself when it is not JSON.
func texts(raw []byte) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return []string{string(raw)}
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(v)
	return out
}
