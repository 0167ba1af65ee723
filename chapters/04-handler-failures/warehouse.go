package main

import (
	"context"
	"errors"
)

// shelves is what the warehouse knows: copies in stock, by title.
var shelves = map[string]int{"Dune": 3}

// askWarehouse asks the warehouse how many copies of title it holds. It
// stands in for a call across the network to a stock service, without one,
// and behaves the same on every run: it answers at once about the titles
// on its shelves; about Beowulf, whose shelf is in a table the warehouse
// has lost, it fails at once with its database driver's error; about any
// other title it never answers, as a service that hangs. It returns when
// the answer comes or when ctx ends, with ctx's error.
func askWarehouse(ctx context.Context, title string) (int, error) {
	if copies, ok := shelves[title]; ok {
		return copies, nil
	}
	if title == "Beowulf" {
		return 0, errors.New(`stock query: SELECT copies FROM shelves_eu WHERE title = $1: pq: relation "shelves_eu" does not exist`)
	}
	<-ctx.Done()
	return 0, ctx.Err()
}
