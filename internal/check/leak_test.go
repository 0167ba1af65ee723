package check

import (
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
