package check_test

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/internal/check"
)

// The arguments that break a tool's input schema: the first two, which
// leave out or mistype a required property, are what the default check
// sends; the others keep the rest valid, and go only to the tools named by
// -tools, or to every tool with -call.
func ExampleBreaks() {
	var s jsonschema.Schema
	json.Unmarshal([]byte(`{"type":"object","properties":{
		"title":{"type":"string"},
		"limit":{"type":"integer","minimum":1,"maximum":50}},
		"required":["title"],"additionalProperties":false}`), &s)
	for _, b := range check.Breaks(&s) {
		args, _ := json.Marshal(b.Args)
		fmt.Printf("%-32s safe=%-5v %s\n", b.How, b.Safe, args)
	}
	// Output:
	// title missing                    safe=true  {}
	// title of the wrong type          safe=true  {"title":42}
	// limit over its maximum           safe=false {"limit":51,"title":"mcpc-check"}
	// limit under its minimum          safe=false {"limit":0,"title":"mcpc-check"}
	// an unknown property              safe=false {"mcpc-check-unknown":true,"title":"mcpc-check"}
}
