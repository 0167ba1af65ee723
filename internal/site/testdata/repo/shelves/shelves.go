// Package shelves is a fixture: a public package whose names the code-span
// tests mention, with a type that embeds another and one with JSON names.
package shelves

import "errors"

// ErrFull is what Shelf.Add returns when the shelf is full.
var ErrFull = errors.New("full")

// Limits bounds a shelf.
type Limits struct {
	MaxBooks int `json:"maxBooks,omitempty"`
}

// Options configures a shelf; it has the fields of Limits too.
type Options struct {
	Limits
	// OnFull is called with the title that did not fit.
	OnFull func(title string)
}

// Shelf holds books.
type Shelf struct{ books []string }

// Add puts a book on the shelf.
func (s *Shelf) Add(title string) error {
	s.books = append(s.books, title)
	return nil
}

// Result is what a shelf answers, as JSON.
type Result struct {
	IsError bool `json:"isError,omitempty"`
}
