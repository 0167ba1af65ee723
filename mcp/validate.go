package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// schema is an input schema compiled once, at registration, into a checker
// whose messages name each failing field by JSON pointer in plain words.
// It covers the keywords schema inference produces and the common
// constraints; a schema using any other keyword is checked by
// jsonschema-go's validator instead (see fallback).
type schema struct {
	types    []string // allowed JSON types; empty allows any
	props    map[string]*schema
	order    []string // property order, for stable messages
	required []string
	closed   bool    // additionalProperties: false
	extra    *schema // additionalProperties schema
	items    *schema
	enum     []any

	minimum, maximum, exclusiveMinimum, exclusiveMaximum *float64

	minLength, maxLength, minItems, maxItems *int
	pattern                                  *regexp.Regexp

	fallback *jsonschema.Resolved // set on the root when a keyword is not covered
}

// falseSchema is how jsonschema-go spells the schema false.
var falseSchema = &jsonschema.Schema{Not: &jsonschema.Schema{}}

// compileSchema compiles s. It panics if s cannot be resolved, which for an
// inferred schema is a programming error.
func compileSchema(s *jsonschema.Schema) *schema {
	if c, ok := compile(s); ok {
		return c
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: cannot resolve schema: %v", err))
	}
	return &schema{fallback: r}
}

// compile returns the checker for s, or false if s uses a keyword it does not
// cover.
func compile(s *jsonschema.Schema) (*schema, bool) {
	if s == nil {
		return nil, true
	}
	if s.Ref != "" || s.DynamicRef != "" || s.AllOf != nil || s.AnyOf != nil || s.OneOf != nil ||
		s.Not != nil || s.If != nil || s.Const != nil || s.MultipleOf != nil || s.PatternProperties != nil ||
		s.DependentRequired != nil || s.DependentSchemas != nil || s.PrefixItems != nil || s.ItemsArray != nil ||
		s.Contains != nil || s.UniqueItems || s.PropertyNames != nil || s.UnevaluatedItems != nil ||
		s.UnevaluatedProperties != nil || s.MinProperties != nil || s.MaxProperties != nil || s.AdditionalItems != nil {
		return nil, false
	}
	c := &schema{
		types: s.Types, required: s.Required, enum: s.Enum,
		minimum: s.Minimum, maximum: s.Maximum, exclusiveMinimum: s.ExclusiveMinimum, exclusiveMaximum: s.ExclusiveMaximum,
		minLength: s.MinLength, maxLength: s.MaxLength, minItems: s.MinItems, maxItems: s.MaxItems,
	}
	if s.Type != "" {
		c.types = []string{s.Type}
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return nil, false
		}
		c.pattern = re
	}
	var ok bool
	if c.items, ok = compile(s.Items); !ok {
		return nil, false
	}
	if a := s.AdditionalProperties; a != nil {
		if reflect.DeepEqual(a, falseSchema) {
			c.closed = true
		} else if c.extra, ok = compile(a); !ok {
			return nil, false
		}
	}
	if len(s.Properties) > 0 {
		c.props = make(map[string]*schema, len(s.Properties))
		c.order = s.PropertyOrder
		for name, p := range s.Properties {
			if c.props[name], ok = compile(p); !ok {
				return nil, false
			}
			if !slices.Contains(c.order, name) {
				c.order = append(c.order, name)
			}
		}
	}
	return c, true
}

// check validates raw JSON arguments; valid says they are known to be
// valid JSON in valid UTF-8, as in a line scanMessage read, which spares
// checking that again. It returns "" when they conform, and otherwise
// every problem found, separated by "; ".
func (c *schema) check(raw json.RawMessage, valid bool) string {
	v, ok := scanValue(raw, valid)
	if !ok {
		v = nil
		if err := json.Unmarshal(raw, &v); err != nil {
			return "arguments are not valid JSON: " + err.Error()
		}
	}
	if c.fallback != nil {
		if err := c.fallback.Validate(v); err != nil {
			return err.Error()
		}
		return ""
	}
	var problems []string
	c.walk(pointer{}, v, &problems)
	return strings.Join(problems, "; ")
}

// pointer is the JSON pointer of a value being checked, joined only when
// needed: most values are valid and have no scalar children to point at.
type pointer struct {
	parent string // the parent's pointer; "" for the root
	token  string // escaped; "" for the root
	child  bool   // false for the root
}

// String returns the pointer's text, "" for the root.
func (p pointer) String() string {
	if !p.child {
		return ""
	}
	return p.parent + "/" + p.token
}

// at is the pointer as messages show it, the root as "/".
func (p pointer) at() string {
	if !p.child {
		return "/"
	}
	return p.String()
}

// walk appends to problems what is wrong with v at pointer p.
func (c *schema) walk(p pointer, v any, problems *[]string) {
	if c == nil {
		return
	}
	fail := func(format string, args ...any) {
		*problems = append(*problems, p.at()+": "+fmt.Sprintf(format, args...))
	}
	if len(c.types) > 0 && !slices.ContainsFunc(c.types, func(t string) bool { return hasType(v, t) }) {
		fail("expected %s, got %s", typeNames(c.types), describe(v))
		return
	}
	if c.enum != nil && !slices.ContainsFunc(c.enum, func(e any) bool { return equalJSON(e, v) }) {
		fail("must be one of %s", listValues(c.enum))
		return
	}
	switch v := v.(type) {
	case float64:
		c.walkNumber(p, v, problems)
	case string:
		n := utf8.RuneCountInString(v)
		if c.minLength != nil && n < *c.minLength {
			fail("must be at least %s long, got %d", count(*c.minLength, "character"), n)
		}
		if c.maxLength != nil && n > *c.maxLength {
			fail("must be at most %s long, got %d", count(*c.maxLength, "character"), n)
		}
		if c.pattern != nil && !c.pattern.MatchString(v) {
			fail("must match the pattern %s", c.pattern)
		}
	case []any:
		if c.minItems != nil && len(v) < *c.minItems {
			fail("must have at least %s, got %d", count(*c.minItems, "item"), len(v))
		}
		if c.maxItems != nil && len(v) > *c.maxItems {
			fail("must have at most %s, got %d", count(*c.maxItems, "item"), len(v))
		}
		ptr := p.String()
		for i, e := range v {
			c.items.walk(pointer{ptr, strconv.Itoa(i), true}, e, problems)
		}
	case map[string]any:
		c.walkObject(p.String(), v, problems)
	}
}

// walkNumber appends to problems what is wrong with the number v at p.
// It formats v only for a message, and takes no callback: a func value
// passed in would be allocated on every call, valid or not.
func (c *schema) walkNumber(p pointer, v float64, problems *[]string) {
	fail := func(format string, bound float64) {
		*problems = append(*problems, p.at()+": "+fmt.Sprintf(format, bound, strconv.FormatFloat(v, 'g', -1, 64)))
	}
	switch {
	case c.minimum != nil && v < *c.minimum:
		fail("must be at least %g, got %s", *c.minimum)
	case c.exclusiveMinimum != nil && v <= *c.exclusiveMinimum:
		fail("must be greater than %g, got %s", *c.exclusiveMinimum)
	}
	switch {
	case c.maximum != nil && v > *c.maximum:
		fail("must be at most %g, got %s", *c.maximum)
	case c.exclusiveMaximum != nil && v >= *c.exclusiveMaximum:
		fail("must be less than %g, got %s", *c.exclusiveMaximum)
	}
}

// walkObject appends to problems what is wrong with the object v at the
// pointer ptr: missing required properties, its properties' own problems,
// and unknown properties, sorted by name.
func (c *schema) walkObject(ptr string, v map[string]any, problems *[]string) {
	for _, name := range c.required {
		if _, ok := v[name]; !ok {
			*problems = append(*problems, ptr+"/"+escapePointer(name)+": required, but missing")
		}
	}
	for _, name := range c.order {
		if e, ok := v[name]; ok {
			c.props[name].walk(pointer{ptr, escapePointer(name), true}, e, problems)
		}
	}
	var unknown []string
	for name, e := range v {
		if _, ok := c.props[name]; ok {
			continue
		}
		if c.closed {
			unknown = append(unknown, name)
		} else {
			c.extra.walk(pointer{ptr, escapePointer(name), true}, e, problems)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		msg := ptr + "/" + escapePointer(name) + ": unknown property"
		if len(c.order) > 0 {
			msg += " (expected " + strings.Join(c.order, ", ") + ")"
		}
		*problems = append(*problems, msg)
	}
}

// hasType reports whether v is of JSON type t.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case float64:
		return t == "number" || t == "integer" && v == math.Trunc(v) && !math.IsInf(v, 0)
	}
	return false
}

// typeNames names JSON types with articles: "a string or null".
func typeNames(types []string) string {
	names := make([]string, len(types))
	for i, t := range types {
		if t == "null" {
			names[i] = t
		} else {
			names[i] = article(t)
		}
	}
	return strings.Join(names, " or ")
}

// describe names a JSON value for a message: `the number 42`, `an object`.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "the boolean " + strconv.FormatBool(v)
	case float64:
		return "the number " + strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		return "the string " + strconv.Quote(v)
	case []any:
		return "an array"
	}
	return "an object"
}

// listValues lists JSON values as their JSON text, separated by commas.
func listValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

// equalJSON compares two decoded JSON values.
func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// escapePointer escapes a property name as a JSON pointer token.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// count says n of a noun: "1 item", "3 items".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
