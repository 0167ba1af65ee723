package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// price is get_price's structured result.
type price struct {
	Title string  `json:"title"`
	Euros float64 `json:"euros"`
}

// priceSchema is get_price's output schema, written out: it says a price is
// never below zero, which mcp.WithOutputSchema[price] cannot say (a
// jsonschema:"minimum=0" tag is refused, and the tool gets no schema).
const priceSchema = `{"type":"object","properties":{"title":{"type":"string"},"euros":{"type":"number","minimum":0}},"required":["title","euros"]}`

var (
	prices    = map[string]float64{"Dune": 9.5, "Neuromancer": 7, "Beowulf": 4}
	discounts = map[string]float64{"Beowulf": 5}
)

func getPrice(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	title := req.GetString("title", "")
	euros, ok := prices[title]
	if !ok {
		return nil, fmt.Errorf("No book titled '%s' in the catalog.", title)
	}
	p := price{title, euros - discounts[title]} // the bug: a discount above the price
	return mcp.NewToolResultStructured(p, fmt.Sprintf("%s costs %.2f euros.", p.Title, p.Euros)), nil
}
