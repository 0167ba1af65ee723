// Package main is a demo chapter.
package main

import "fmt"

// limit is how many books fit.
const limit = 3

// Kinds of shelf.
const (
	// shelfTop is the top shelf.
	shelfTop = iota
	shelfBottom
)

// shelf holds books.
type shelf struct{ books []string }

// add puts a book on the shelf.
func (s *shelf) add(title string) error {
	// region: full
	if len(s.books) >= limit {
		return fmt.Errorf("the shelf is full")
	}
	// endregion
	s.books = append(s.books, title)
	return nil
}

func main() {}
