package main

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
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
	if !ok { // the bug's twin: detail for programs in a shape the schema does not describe
		return price{}, &mcp.ToolError{Text: fmt.Sprintf("No book titled '%s' in the catalog.", args.Title),
			Structured: map[string]string{"missing": args.Title}}
	}
	return price{args.Title, euros - discounts[args.Title]}, nil // the bug: a discount above the price
}
