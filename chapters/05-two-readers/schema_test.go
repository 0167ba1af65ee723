package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/internal/exchange"
)

// TestStructuredContentFitsTheOutputSchema checks every pinned result of
// order_book, the tool errors included, against the output schema that
// tools/list pins, with jsonschema-go's own validator rather than the
// core's checker: a client that checks structuredContent even on an error
// (the TypeScript SDK's, and so the Inspector) accepts each of them.
func TestStructuredContentFitsTheOutputSchema(t *testing.T) {
	for _, era := range []string{"modern", "legacy"} {
		archive := filepath.Join("..", "..", "testdata", "scripts", "05-two-readers", era+".txtar")
		exchanges, err := exchange.Exchanges(archive)
		if err != nil {
			t.Fatal(err)
		}
		var schema *jsonschema.Resolved
		results := map[string]json.RawMessage{}
		for _, ex := range exchanges {
			for line := range bytes.Lines(ex.Replies) {
				var reply struct {
					Result struct {
						Tools []struct {
							OutputSchema *jsonschema.Schema `json:"outputSchema"`
						} `json:"tools"`
						StructuredContent json.RawMessage `json:"structuredContent"`
						IsError           bool            `json:"isError"`
					} `json:"result"`
				}
				if err := json.Unmarshal(line, &reply); err != nil {
					t.Fatalf("%s %s: %v", era, ex.Name, err)
				}
				if tools := reply.Result.Tools; len(tools) == 1 {
					if schema, err = tools[0].OutputSchema.Resolve(nil); err != nil {
						t.Fatalf("%s: the pinned output schema does not resolve: %v", era, err)
					}
				}
				if reply.Result.StructuredContent != nil {
					results[ex.Name] = reply.Result.StructuredContent
				}
			}
		}
		if schema == nil || len(results) != 4 {
			t.Fatalf("%s: output schema %v, %d structured results; want the schema and 4 results (an order and three failures)", era, schema, len(results))
		}
		for name, content := range results {
			var v any
			if err := json.Unmarshal(content, &v); err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s %s: structuredContent %s does not fit the output schema: %v", era, name, content, err)
			}
		}
	}
}
