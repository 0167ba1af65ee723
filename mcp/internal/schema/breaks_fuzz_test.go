package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/internal/check"
	"github.com/mcpbookshop/guide/internal/jsonwire"
	"github.com/mcpbookshop/guide/mcp/internal/schema"
)

// FuzzBreaks holds mcpc check's argument generator to what it claims: on
// any input schema of the kinds the core's checker covers, it never
// panics, and every set of arguments it calls breaking is refused both by
// the core's checker and by jsonschema-go's validator.
func FuzzBreaks(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 7, 9, 4, 1, 200, 3})
	f.Add([]byte{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5})
	f.Add([]byte("the quick brown fox jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{data: data}
		s := g.object(0)
		core := schema.Compile(s)
		resolved, err := s.Resolve(nil)
		if err != nil {
			t.Skip("jsonschema-go does not resolve it:", err)
		}
		for _, b := range check.Breaks(s) {
			raw, err := json.Marshal(b.Args)
			if err != nil {
				t.Fatalf("%s: the arguments do not encode: %v", b.How, err)
			}
			if core.Check(raw, jsonwire.Value{}) == "" {
				t.Errorf("%s: the core's checker accepts %s against %s", b.How, raw, show(s))
			}
			var v any
			json.Unmarshal(raw, &v)
			if resolved.Validate(v) == nil {
				t.Errorf("%s: jsonschema-go accepts %s against %s", b.How, raw, show(s))
			}
		}
	})
}

func show(s *jsonschema.Schema) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// gen makes a schema from fuzz bytes, within the keywords the core's
// checker covers.
type gen struct {
	data []byte
	i    int
}

func (g *gen) next() int {
	if g.i >= len(g.data) {
		return 0
	}
	g.i++
	return int(g.data[g.i-1])
}

var typeNames = []string{"string", "integer", "number", "boolean", "object", "array", "null"}

func (g *gen) object(depth int) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	n := g.next() % 4
	for i := range n {
		name := string(rune('a' + i))
		s.Properties[name] = g.any(depth + 1)
		if g.next()%2 == 0 {
			s.Required = append(s.Required, name)
		}
	}
	switch g.next() % 3 {
	case 0:
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	case 1:
		s.AdditionalProperties = g.any(depth + 1)
	}
	return s
}

func (g *gen) any(depth int) *jsonschema.Schema {
	switch k := g.next() % 9; {
	case k == 7 && depth < 3:
		return g.object(depth)
	case k == 8:
		a, b := typeNames[g.next()%7], typeNames[g.next()%7]
		if a == b || a == "object" || b == "object" || a == "array" || b == "array" {
			return &jsonschema.Schema{Type: "string"}
		}
		return &jsonschema.Schema{Types: []string{a, b}}
	default:
		s := &jsonschema.Schema{Type: typeNames[k%7]}
		bound := func() *float64 { f := float64(g.next() - 100); return &f }
		size := func() *int { n := g.next() % 6; return &n }
		switch s.Type {
		case "integer", "number":
			if g.next()%2 == 0 {
				s.Minimum = bound()
			}
			if g.next()%2 == 0 {
				s.Maximum = bound()
			}
		case "string":
			if g.next()%2 == 0 {
				s.MinLength = size()
			}
			if g.next()%2 == 0 {
				s.MaxLength = size()
			}
		case "array":
			if depth < 3 {
				s.Items = g.any(depth + 1)
			}
			if g.next()%2 == 0 {
				s.MinItems = size()
			}
			if g.next()%2 == 0 {
				s.MaxItems = size()
			}
		case "object":
			return g.object(depth)
		}
		return s
	}
}
