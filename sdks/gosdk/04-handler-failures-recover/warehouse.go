package main

import (
	"context"
	"errors"
)

// shelves is what the warehouse knows: copies in stock, by title.
var shelves = map[string]int{"Dune": 3}

// askWarehouse stands in for a stock service, as the guide's chapter 04
// has it: it answers at once about the titles on its shelves, fails at once
// about Beowulf with its database driver's error, and never answers about
// any other title. It returns when the answer comes or when ctx ends, with
// ctx's error.
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
