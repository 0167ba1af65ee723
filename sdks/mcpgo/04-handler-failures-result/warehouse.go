package main

import (
	"context"
	"errors"
)

// shelves is what the warehouse knows: copies in stock, by title.
var shelves = map[string]int{"Dune": 3}

// askWarehouse stands in for a stock service across the network, the same
// on every run: it answers at once about the titles on its shelves, fails
// at once about Beowulf with its database driver's error, and about any
// other title never answers. It returns when ctx ends, with ctx's error.
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
