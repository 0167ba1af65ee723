package mcp

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func ptr[T any](v T) *T { return &v }

func TestSchemaMessages(t *testing.T) {
	props := map[string]*jsonschema.Schema{
		"title": {Type: "string", MinLength: ptr(1), MaxLength: ptr(5), Pattern: "^[A-Z]"},
		"limit": {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(50.0)},
		"ratio": {Type: "number", ExclusiveMinimum: ptr(0.0), ExclusiveMaximum: ptr(1.0)},
		"sort":  {Type: "string", Enum: []any{"title", "author"}},
		"tags":  {Type: "array", Items: &jsonschema.Schema{Type: "string"}, MinItems: ptr(1), MaxItems: ptr(2)},
		"note":  {Types: []string{"null", "string"}},
		"extra": {Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "integer"}},
	}
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           props,
		PropertyOrder:        []string{"title", "limit", "ratio", "sort", "tags", "note", "extra"},
		Required:             []string{"title"},
		AdditionalProperties: falseSchema,
	}
	c := compileSchema(s)
	if c.fallback != nil {
		t.Fatal("the schema fell back to jsonschema-go; it should be compiled")
	}
	for _, tt := range []struct{ args, want string }{
		{`{"title":"Dune"}`, ""},
		{`{"title":"Dune","note":null,"limit":50,"ratio":0.5,"sort":"author","tags":["a"],"extra":{"n":1}}`, ""},
		{`{"title":42}`, "/title: expected a string, got the number 42"},
		{`{}`, "/title: required, but missing"},
		{`{"title":"Dune","year":1965}`, "/year: unknown property (expected title, limit, ratio, sort, tags, note, extra)"},
		{`{"title":""}`, "/title: must be at least 1 character long, got 0; /title: must match the pattern ^[A-Z]"},
		{`{"title":"Neuromancer"}`, "/title: must be at most 5 characters long, got 11"},
		{`{"title":"dune"}`, "/title: must match the pattern ^[A-Z]"},
		{`{"title":"Dune","limit":0}`, "/limit: must be at least 1, got 0"},
		{`{"title":"Dune","limit":999}`, "/limit: must be at most 50, got 999"},
		{`{"title":"Dune","limit":2.5}`, "/limit: expected an integer, got the number 2.5"},
		{`{"title":"Dune","ratio":0}`, "/ratio: must be greater than 0, got 0"},
		{`{"title":"Dune","ratio":1}`, "/ratio: must be less than 1, got 1"},
		{`{"title":"Dune","sort":"year"}`, `/sort: must be one of "title", "author"`},
		{`{"title":"Dune","tags":[]}`, "/tags: must have at least 1 item, got 0"},
		{`{"title":"Dune","tags":["a","b","c"]}`, "/tags: must have at most 2 items, got 3"},
		{`{"title":"Dune","tags":["a",7]}`, "/tags/1: expected a string, got the number 7"},
		{`{"title":"Dune","note":true}`, "/note: expected null or a string, got the boolean true"},
		{`{"title":"Dune","extra":{"n":"x"}}`, `/extra/n: expected an integer, got the string "x"`},
		{`{"title":42,"limit":0}`, "/title: expected a string, got the number 42; /limit: must be at least 1, got 0"},
		{`[]`, "/: expected an object, got an array"},
	} {
		if got := c.check([]byte(tt.args), false); got != tt.want {
			t.Errorf("check(%s)\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

func TestSchemaInferred(t *testing.T) {
	type args struct {
		Title string   `json:"title" jsonschema:"the exact title"`
		Tags  []string `json:"tags,omitempty"`
	}
	in, err := jsonschema.For[args](nil)
	if err != nil {
		t.Fatal(err)
	}
	c := compileSchema(in)
	if c.fallback != nil {
		t.Fatal("an inferred schema fell back to jsonschema-go")
	}
	for args, want := range map[string]string{
		`{"title":"Dune","tags":["sf"]}`: "",
		`{"tags":["sf"]}`:                "/title: required, but missing",
		`{"title":"Dune","tags":[1]}`:    "/tags/0: expected a string, got the number 1",
		`{"title":"Dune","tag":"sf"}`:    "/tag: unknown property (expected title, tags)",
	} {
		if got := c.check([]byte(args), false); got != want {
			t.Errorf("check(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestSchemaFallback(t *testing.T) {
	// anyOf is not covered by the compiled checker: jsonschema-go validates.
	s := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"id": {AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "integer"}}},
		},
	}
	c := compileSchema(s)
	if c.fallback == nil {
		t.Fatal("a schema with anyOf was compiled; it should fall back to jsonschema-go")
	}
	for _, ok := range []string{`{"id":"a"}`, `{"id":3}`, `{}`} {
		if got := c.check([]byte(ok), false); got != "" {
			t.Errorf("check(%s) = %q, want no problem", ok, got)
		}
	}
	if got := c.check([]byte(`{"id":true}`), false); got == "" {
		t.Error(`check({"id":true}) found no problem`)
	}
}

func TestSchemaEscapesPointers(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"a/b~c": {Type: "string"}}}
	if got, want := compileSchema(s).check([]byte(`{"a/b~c":1}`), false), "/a~1b~0c: expected a string, got the number 1"; got != want {
		t.Errorf("check = %q, want %q", got, want)
	}
}
