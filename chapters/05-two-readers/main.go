// Chapter 05: a tool error for two readers.
//
// order_book's errors are written for the model and for programs at once.
// The text stands alone, since many hosts give the model nothing else; the
// structured content says the same as data (which argument to change, how
// many copies there are, when to try again), in the shape of the tool's
// output schema, which an order and a failed order share. Each request can
// be a span too (tracing.go), for the operators among the error's readers.
package main

import (
	"context"
	"fmt"

	"github.com/mcpbookshop/guide/mcp"
)

type orderArgs struct {
	Title  string `json:"title" jsonschema:"the exact title of the book"`
	Copies int    `json:"copies" jsonschema:"how many copies to order" mcp:"minimum=1"`
}

// order is order_book's structured result: the order, or why there is none.
type order struct {
	Title  string      `json:"title,omitempty"`
	Copies int         `json:"copies,omitempty"`
	Error  *orderError `json:"error,omitempty"`
}

// orderError is a failed order, as data for programs.
type orderError struct {
	Code       string `json:"code" jsonschema:"unknown_title, out_of_stock or warehouse_busy"`
	Field      string `json:"field,omitempty" jsonschema:"the argument to change"`
	Available  *int   `json:"available,omitempty" jsonschema:"the copies in stock"`
	RetryAfter int    `json:"retryAfterSeconds,omitempty" jsonschema:"when to try again"`
}

var (
	stock    = map[string]int{"Dune": 3, "Neuromancer": 1}
	counting = map[string]bool{"Beowulf": true} // the warehouse is counting these
)

func orderBook(ctx context.Context, args orderArgs) (order, error) {
	copies, ok := stock[args.Title]
	switch {
	case counting[args.Title]:
		return order{}, failed(orderError{Code: "warehouse_busy", RetryAfter: 30},
			"The warehouse is counting its copies of '%s'; try again in 30 seconds.", args.Title)
	case !ok:
		return order{}, failed(orderError{Code: "unknown_title", Field: "title"},
			"No book titled '%s' in the catalog.", args.Title)
	case args.Copies > copies:
		return order{}, failed(orderError{Code: "out_of_stock", Field: "copies", Available: &copies},
			"The warehouse holds %d of '%s'; order at most that many.", copies, args.Title)
	}
	return order{Title: args.Title, Copies: args.Copies}, nil
}

// failed returns a tool error for both readers: the text, formatted as by
// fmt.Sprintf, for the model, and e as structured content for programs.
func failed(e orderError, format string, args ...any) error {
	return &mcp.ToolError{Text: fmt.Sprintf(format, args...), Structured: order{Error: &e}}
}

func newServer(opts *mcp.Options) *mcp.Server {
	s := mcp.NewServer("Bookshop", "1.0.0", opts)
	mcp.AddTool(s, mcp.Tool{Name: "order_book", Description: "Order copies of a book from the warehouse."}, orderBook)
	return s
}

func main() {
	opts, flush := tracing() // with -trace or OTEL_EXPORTER_OTLP_ENDPOINT (tracing.go)
	defer flush()
	mcp.Main(newServer(opts))
}
