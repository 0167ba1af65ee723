package check

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLeaks: the scan finds each kind of internals, and not the texts a
// careful server sends, nor what the check itself sent and the server
// echoes.
func TestLeaks(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"panic: runtime error: invalid memory address or nil pointer dereference", "a Go panic trace"},
		{"goroutine 18 [running]:\nmain.main()", "a Go panic trace"},
		{"Traceback (most recent call last):\n  File \"/app/server.py\", line 12, in handler", "a Python traceback"},
		{"TypeError: x is undefined\n    at handler (/srv/app/index.js:10:15)\n    at process", "a JavaScript stack"},
		{"java.lang.NullPointerException\n\tat com.shop.Books.find(Books.java:42)", "a Java stack"},
		{"SELECT title, author FROM books WHERE id = 7", "an SQL statement"},
		{`pq: duplicate key value violates unique constraint "books_pkey"`, "a database driver's error"},
		{"ERROR 1064 (42000): You have an error in your SQL syntax", "a database driver's error"},
		{"no such table: books", "a database driver's error"},
		{"open failed at internal/store/books.go:88", "a source path with a line number"},
	} {
		leaks := scanLeaks([]string{tt.text}, nil)
		if !containsLeak(leaks, tt.want) {
			t.Errorf("%q: found %v, want %s", tt.text, leaks, tt.want)
		}
	}
	for _, clean := range []string{
		"No book titled 'Dune' in the catalog.",
		"Error executing tool get_author: /title: expected a string, got the number 42",
		"Error executing tool check_stock",
		"Unknown resource: books://Nothing",
		"Select the books you want from the list, then update your order.",
		"at 10:15 the store opens",
		"Internal error",
	} {
		if leaks := scanLeaks([]string{clean}, nil); len(leaks) > 0 {
			t.Errorf("%q: found %v, want none", clean, leaks)
		}
	}
	echo := "Unknown resource: file:///src/main.go:12"
	if leaks := scanLeaks([]string{echo}, []string{"file:///src/main.go:12"}); len(leaks) > 0 {
		t.Errorf("an echo of what the check sent: found %v, want none", leaks)
	}
	if leaks := scanLeaks([]string{echo}, nil); !containsLeak(leaks, "a source path with a line number") {
		t.Errorf("the same text, not sent by the check: found %v, want a source path", leaks)
	}
}

func containsLeak(leaks []leak, what string) bool {
	for _, l := range leaks {
		if l.what == what && strings.TrimSpace(l.quote) != "" {
			return true
		}
	}
	return false
}

// referencePatterns are the scan's regexps as they were before the scan
// looked for needles: each kind's regexp, run over the whole text.
var referencePatterns = []string{
	`(?m)(^|\b)panic: .+|goroutine \d+ \[[a-z ]+\]:|runtime/debug\.Stack|runtime\.gopanic`,
	`Traceback \(most recent call last\)|File "[^"]+", line \d+`,
	`(?m)^\s*at (?:async )?[\w$.<>\[\] ]*\(?(?:file://)?[\w/\\:.@-]+\.[cm]?[jt]sx?:\d+:\d+\)?`,
	`\bat [\w$]+(?:\.[\w$<>]+)+\((?:[\w$]+\.(?:java|kt|scala)(?::\d+)?|Native Method|Unknown Source)\)|Exception in thread "|\b(?:java|javax|jakarta)\.[\w.]+(?:Exception|Error)\b`,
	`\b(?:SELECT\s+[\w*,. ()"]+\s+FROM|INSERT\s+INTO|UPDATE\s+[\w."]+\s+SET|DELETE\s+FROM)\s+[\w."]+`,
	`(?i)\bSQLSTATE\b|\bpq: |\bORA-\d{5}\b|\bError \d{4} \(\w{5}\)|\bsqlite3?\b.*error|syntax error at or near|no such table:|no such column:|duplicate key value violates|violates (?:foreign key|unique|not-null) constraint|psycopg2?\.|sqlalchemy\.exc|\bSequelize\w*Error\b|\bPrismaClient\w*Error\b`,
	`(?:[A-Za-z]:\\|/)?(?:[\w.@-]+[/\\])+[\w.-]+\.(?:go|py|js|mjs|cjs|ts|java|kt|rb|rs|cs|php|c|cc|cpp|h|swift|scala|ex|exs):\d+`,
}

var referenceRegexps = func() (res []*regexp.Regexp) {
	for _, p := range referencePatterns {
		res = append(res, regexp.MustCompile(p))
	}
	return res
}()

// referenceScan is scanLeaks as it was: each kind's regexp over the whole
// text.
func referenceScan(texts, sent []string) []leak {
	var leaks []leak
	seen := map[string]bool{}
	for _, text := range texts {
		text = removeEchoes(text, sent)
		for i, p := range leakPatterns {
			loc := referenceRegexps[i].FindStringIndex(text)
			if loc == nil || seen[p.what] {
				continue
			}
			seen[p.what] = true
			leaks = append(leaks, leak{p.what, excerpt(text, loc[0], loc[1]), p.trace})
		}
	}
	return leaks
}

// TestScanRegexps: each kind's regexp is the reference's, in the same
// order.
func TestScanRegexps(t *testing.T) {
	if len(leakPatterns) != len(referencePatterns) {
		t.Fatalf("%d kinds, want %d", len(leakPatterns), len(referencePatterns))
	}
	for i, p := range leakPatterns {
		if got := p.re.String(); got != referencePatterns[i] {
			t.Errorf("%s: the regexp is\n%s\nwant\n%s", p.what, got, referencePatterns[i])
		}
	}
}

// scanFragments are the pieces scanCorpus builds its texts of: whole and
// partial leaks of every alternative, the words their needles are found
// in, the bytes around them, and runes that fold or do not decode.
var scanFragments = []string{
	"panic: runtime error: index out of range", "goroutine 1 [running]:", "goroutine 7 [chan receive]:",
	"runtime/debug.Stack", "runtime.gopanic", "Traceback (most recent call last):", `File "/app/x.py", line 3`,
	"    at handler (/srv/app/index.js:10:15)", "at async Foo.bar (file:///a/b.mjs:1:2)", "  at x.ts:1:2",
	"\tat com.shop.Books.find(Books.java:42)", "at a.B.c(Native Method)", "at a.B.c(Unknown Source)",
	`Exception in thread "main"`, "java.lang.NullPointerException", "javax.net.ssl.SSLError", "jakarta.x.YException",
	"SELECT title, author FROM books", "SELECT * FROM", "INSERT INTO books", "UPDATE books SET", "DELETE FROM books",
	"SQLSTATE", "sqlstate 42P01", "pq: ", "ORA-00942", "Error 1064 (42000)", "sqlite3: error", "SQLite said: ERROR",
	"syntax error at or near", "No such table: books", "no such column:", "duplicate key value violates",
	"violates foreign key constraint", "violates NOT-NULL constraint", "psycopg2.errors", "psycopg.", "sqlalchemy.exc",
	"SequelizeDatabaseError", "PrismaClientKnownRequestError", `C:\src\main.go:12`, "/usr/lib/x.rb:3", "app.py:7",
	"internal/store/books.go:88", "a/b.cpp:1", "file:///src/main.go:12",
	"the", "at", "that", "what", "error", "Error", "ERROR", "select", "Select", "panic", "file", "File", "java",
	"sqlite", "table", "constraint", "Exception", "pq", "ora", "go", "py", "js",
	" ", "  ", "\n", "\n\n", "\t", "\r\n", ".", ":", "/", `\`, `"`, "(", ")", ",", "_", "-", "@", "$", "<", ">", "[", "]", "*",
	"1", "42", "00942", "1064", "é", "ſ", "K", "日本", "İ", "\xff", "\xc3", "\xe2\x84", "\u00a0",
}

// scanCorpus returns the texts TestScanAgrees scans: TestLeaks's, then n
// texts made of scanFragments, some cut, some in other cases.
func scanCorpus(n int) []string {
	corpus := []string{
		"panic: runtime error: invalid memory address or nil pointer dereference",
		"goroutine 18 [running]:\nmain.main()",
		"Traceback (most recent call last):\n  File \"/app/server.py\", line 12, in handler",
		"TypeError: x is undefined\n    at handler (/srv/app/index.js:10:15)\n    at process",
		"java.lang.NullPointerException\n\tat com.shop.Books.find(Books.java:42)",
		"SELECT title, author FROM books WHERE id = 7",
		`pq: duplicate key value violates unique constraint "books_pkey"`,
		"ERROR 1064 (42000): You have an error in your SQL syntax",
		"no such table: books",
		"open failed at internal/store/books.go:88",
		"No book titled 'Dune' in the catalog.",
		"Error executing tool get_author: /title: expected a string, got the number 42",
		"Select the books you want from the list, then update your order.",
		"at 10:15 the store opens",
		"Unknown resource: file:///src/main.go:12",
		"no ſuch table: books", "duplicate \u212aey value violates", // ſ and K: (?i) reads them as s and k
		"",
	}
	return append(corpus, randomTexts(scanFragments, n)...)
}

// randomTexts returns n texts, each of up to 30 fragments, some cut, some
// in other cases, the same on every run.
func randomTexts(fragments []string, n int) []string {
	rng := rand.New(rand.NewPCG(28, uint64(n)))
	texts := make([]string, n)
	for i := range texts {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			f := fragments[rng.IntN(len(fragments))]
			switch rng.IntN(8) {
			case 0:
				f = f[:rng.IntN(len(f)+1)]
			case 1:
				f = f[rng.IntN(len(f)+1):]
			case 2:
				f = strings.ToUpper(f)
			case 3:
				f = strings.ToLower(f)
			}
			b.WriteString(f)
		}
		texts[i] = b.String()
	}
	return texts
}

// TestScanAgrees: the scan reports what the reference reports, quote for
// quote, on the corpus, on long texts made to defeat its needles, and on
// texts the check sent, echoed.
func TestScanAgrees(t *testing.T) {
	corpus := scanCorpus(1500)
	for i, text := range corpus {
		agree(t, []string{text}, nil)
		if i > 0 { // two texts, and the end of the first one sent by the check
			agree(t, []string{corpus[i-1], text}, []string{corpus[i-1][len(corpus[i-1])/2:]})
		}
	}
	long := []string{ // each read whole by the regexps, once the anchored matches would read too much
		strings.Repeat("that ", 4000),              // a needle of the JavaScript stack every 5 bytes, in one run
		strings.Repeat("SELECT ", 3000),            // SQL needles in one run, and no match
		strings.Repeat("SELECT ", 3000) + "FROM x", // ... and a match
		strings.Repeat("sqlite ", 3000),            // a driver's needle, and the rest of the line to read
		strings.Repeat("\n", 20000) + " at f",      // 20000 starts for one needle
		strings.Repeat("\n", 20000) + " at f (a.js:1:2)",
		strings.Repeat("a/", 10000) + "b.go:1", // a source path 20 KB long
		strings.Repeat("error ", 4000) + "sqlite ſ error",
	}
	for _, text := range long {
		agree(t, []string{text}, nil)
	}
}

func agree(t *testing.T, texts, sent []string) {
	t.Helper()
	got, want := scanLeaks(texts, sent), referenceScan(texts, sent)
	if !slices.Equal(got, want) {
		t.Errorf("%.200q (sent %.100q):\nthe scan finds  %+v\nthe reference's %+v", texts, sent, got, want)
	}
}

// TestLeakPatternFind: a pattern finds the match its regexp finds, start
// and end, on patterns made to try what the scan's do not all show: two
// alternatives that match at the same start (the first one wins), a needle
// with ^ and \b before it, or a run of spaces, and one that a rune beyond
// ASCII folds to.
func TestLeakPatternFind(t *testing.T) {
	patterns := []*leakPattern{
		newLeakPattern("first", false, ``, `abc`, `abcdef`, `\babc\w+`),
		newLeakPattern("context", false, `(?m)`, `^\s*at [a-z]+:\d`, `(^|\b)boom: .+`, `[a-z]+/[a-z]+\.go:\d+`),
		newLeakPattern("fold", false, `(?i)`, `\bkelvin\b`, `ssk\w*`, `mass \d{2}`),
	}
	fragments := []string{"abc", "abcdef", "ab", "def", " at ", "at ", "x:1", "boom: ", "boom", "a/b.go:1", "a/", "b.go",
		"kelvin", "KELVIN", "ssk", "mass 12", "\u212a", "\u017f", "\n", " ", "\t", ".", "_", "7", "é", "\xff"}
	for _, p := range patterns {
		for _, text := range randomTexts(fragments, 5000) {
			got, want := p.find(&haystack{text: text}), p.re.FindStringIndex(text)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %q: found at %v, the regexp at %v", p.what, text, got, want)
			}
		}
	}
}

// FuzzScan: the scan and the reference agree on any text, with any string
// sent.
func FuzzScan(f *testing.F) {
	for _, text := range scanCorpus(200) {
		f.Add(text, "")
	}
	f.Add("Unknown resource: file:///src/main.go:12", "file:///src/main.go:12")
	f.Fuzz(func(t *testing.T, text, sent string) {
		agree(t, []string{text}, []string{sent})
	})
}

// BenchmarkScan scans a MiB of a server's prose, which holds many of the
// needles and no leak ("clean"), and the same with a Go panic near its end
// ("leak").
func BenchmarkScan(b *testing.B) {
	var prose strings.Builder
	for i := 0; prose.Len() < 1<<20; i++ {
		fmt.Fprintf(&prose, "Book %d: Dune by Frank Herbert, 412 pages, %d in stock at the Main Street shop. "+
			"Select it by its title; an error that says what to send instead is what the model reads.\n", i, i%7)
	}
	clean := prose.String()[:1<<20]
	leaky := clean[:len(clean)-200] + "\npanic: runtime error: invalid memory address\n" + clean[len(clean)-154:]
	for _, bc := range []struct{ name, text string }{{"clean", clean}, {"leak", leaky}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				leaks := scanLeaks([]string{bc.text}, nil)
				if (len(leaks) > 0) != (bc.name == "leak") {
					b.Fatalf("found %v", leaks)
				}
			}
		})
	}
}
