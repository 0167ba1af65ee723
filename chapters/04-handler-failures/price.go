package main

import (
	"context"
	"fmt"
)

// price is get_price's structured result. Its output schema says a price
// is never below zero.
type price struct {
	Title string  `json:"title"`
	Euros float64 `json:"euros" mcp:"minimum=0"`
}

var (
	prices    = map[string]float64{"Dune": 9.5, "Neuromancer": 7, "Beowulf": 4}
	discounts = map[string]float64{"Beowulf": 5}
)

func getPrice(ctx context.Context, args titleArgs) (price, error) {
	euros, ok := prices[args.Title]
	if !ok {
		return price{}, fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return price{args.Title, euros - discounts[args.Title]}, nil // the bug: a discount above the price
}
