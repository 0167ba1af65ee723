package main

import (
	"context"
	"fmt"
	"log"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// price is get_price's structured result. Its output schema says a price
// is never below zero.
type price struct {
	Title string  `json:"title"`
	Euros float64 `json:"euros"`
}

// priceSchema is price's inferred schema with the bound struct tags
// cannot say.
func priceSchema() *jsonschema.Schema {
	s, err := jsonschema.For[price](nil)
	if err != nil {
		log.Fatal(err)
	}
	s.Properties["euros"].Minimum = jsonschema.Ptr(0.0)
	return s
}

var (
	prices    = map[string]float64{"Dune": 9.5, "Neuromancer": 7, "Beowulf": 4}
	discounts = map[string]float64{"Beowulf": 5}
)

func getPrice(ctx context.Context, req *mcp.CallToolRequest, args titleArgs) (*mcp.CallToolResult, price, error) {
	euros, ok := prices[args.Title]
	if !ok {
		return nil, price{}, fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
	}
	return nil, price{args.Title, euros - discounts[args.Title]}, nil // the bug: a discount above the price
}
