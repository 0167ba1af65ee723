package main

import "context"

// shelves is what the warehouse knows: copies in stock, by title.
var shelves = map[string]int{"Dune": 3}

// askWarehouse asks the warehouse how many copies of title it holds. It
// stands in for a call across the network to a stock service, without one,
// and behaves the same on every run: it answers at once about the titles
// on its shelves, and never about any other, as a service that hangs. It
// returns when the answer comes or when ctx ends, with ctx's error.
func askWarehouse(ctx context.Context, title string) (int, error) {
	if copies, ok := shelves[title]; ok {
		return copies, nil
	}
	<-ctx.Done()
	return 0, ctx.Err()
}
