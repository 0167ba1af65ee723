// Package schema checks a tool's arguments against the input schema that
// jsonschema.For inferred from the tool's Go argument type, and says what is
// wrong in plain words, naming each failing field by JSON pointer: what the
// model reads in the tool error when its arguments do not fit.
package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// Checker is an input schema compiled once, at registration. It covers
// every keyword that jsonschema.For infers from a Go type (the only schemas
// a tool has): types, properties, required, additionalProperties, items,
// and the bounds of sized integers and of arrays.
type Checker struct {
	types    []string // allowed JSON types; empty allows any
	props    map[string]*Checker
	order    []string // property order, for stable messages
	required []string
	closed   bool     // additionalProperties: false
	extra    *Checker // additionalProperties schema
	items    *Checker

	minimum, maximum     *float64
	minLength, maxLength *int
	minItems, maxItems   *int
}

// falseSchema is how jsonschema-go spells the schema false.
var falseSchema = &jsonschema.Schema{Not: &jsonschema.Schema{}}

// covered are the fields of jsonschema.Schema that the checker reads, or
// that do not constrain a value.
var covered = []string{"Type", "Types", "Properties", "PropertyOrder", "Required",
	"AdditionalProperties", "Items", "Minimum", "Maximum", "MinLength", "MaxLength", "MinItems", "MaxItems", "Description"}

// Compile compiles s. It panics if s uses a keyword the checker does not
// cover, which only a jsonschema-go inferring more than it does today could
// cause: a programming error, found at startup.
func Compile(s *jsonschema.Schema) *Checker {
	if s == nil {
		return nil
	}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.IsExported() && !v.Field(i).IsZero() && !slices.Contains(covered, f.Name) {
			panic("mcp: an input schema uses " + f.Name + ", which the argument checker does not cover")
		}
	}
	c := &Checker{
		types: s.Types, required: s.Required, items: Compile(s.Items),
		minimum: s.Minimum, maximum: s.Maximum, minLength: s.MinLength, maxLength: s.MaxLength,
		minItems: s.MinItems, maxItems: s.MaxItems,
	}
	if s.Type != "" {
		c.types = []string{s.Type}
	}
	if a := s.AdditionalProperties; reflect.DeepEqual(a, falseSchema) {
		c.closed = true
	} else {
		c.extra = Compile(a)
	}
	if len(s.Properties) > 0 {
		c.props = make(map[string]*Checker, len(s.Properties))
		c.order = s.PropertyOrder
		for name, p := range s.Properties {
			c.props[name] = Compile(p)
			if !slices.Contains(c.order, name) {
				c.order = append(c.order, name)
			}
		}
	}
	return c
}

// Check validates raw JSON arguments. scanned is raw scanned by package
// jsonwire, if it was: when it is plain, the check reads it and decodes
// nothing; otherwise raw is decoded as encoding/json decodes it into an
// interface value, whose JSON is then scanned (each name once, every
// number a float64). It returns "" when the arguments conform, and
// otherwise every problem found, separated by "; ".
func (c *Checker) Check(raw json.RawMessage, scanned jsonwire.Value) string {
	v := scanned
	if !v.Plain() {
		var a any
		if err := json.Unmarshal(raw, &a); err != nil {
			return "arguments are not valid JSON: " + err.Error()
		}
		text, err := json.Marshal(a)
		if err != nil {
			panic("mcp: decoded arguments do not encode: " + err.Error())
		}
		if v, _ = jsonwire.ScanValue(text); !v.Plain() {
			panic("mcp: encoded arguments do not scan: " + string(text))
		}
	}
	var problems []string
	if c.walk(pointer{}, v, &problems); problems == nil {
		return ""
	}
	return join(problems)
}

// The most problems a check reports, and the most bytes their text takes:
// a model fixes its arguments from the first few, and a thousand wrong
// elements would otherwise make a text of any size.
const (
	maxProblems     = 10
	maxProblemBytes = 1 << 10
)

// join returns problems separated by "; ": at most maxProblems of them, in
// at most maxProblemBytes, ending with how many more there were.
func join(problems []string) string {
	const room = len("; and 1000000000 more") // kept for the ending
	var b strings.Builder
	shown := 0
	for _, p := range problems {
		if shown == maxProblems || b.Len()+len("; ")+len(p) > maxProblemBytes-room {
			break
		}
		if shown > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p)
		shown++
	}
	if shown == 0 && len(problems) > 0 { // one problem longer than the bound
		p := []rune(problems[0][:maxProblemBytes-room])
		b.WriteString(string(p[:len(p)-1]) + "…")
		shown = 1
	}
	if rest := len(problems) - shown; rest > 0 {
		b.WriteString("; and " + strconv.Itoa(rest) + " more")
	}
	return b.String()
}

// pointer is the JSON pointer of a value being checked, joined and
// escaped only when needed: most values are valid and have no scalar
// children to point at.
type pointer struct {
	parent string // the parent's pointer; "" for the root
	token  string // not escaped yet; "" for the root
	child  bool   // false for the root
}

// String returns the pointer's text, "" for the root.
func (p pointer) String() string {
	if !p.child {
		return ""
	}
	return p.parent + "/" + escapePointer(p.token)
}

// at is the pointer as messages show it, the root as "/".
func (p pointer) at() string {
	if !p.child {
		return "/"
	}
	return p.String()
}

// walk appends to problems what is wrong with v at pointer p.
func (c *Checker) walk(p pointer, v jsonwire.Value, problems *[]string) {
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
	switch v.Kind() {
	case '0':
		c.walkNumber(p, v.Float(), problems)
	case '"':
		if c.minLength == nil && c.maxLength == nil {
			break
		}
		n := utf8.RuneCountInString(v.Str())
		if c.minLength != nil && n < *c.minLength {
			fail("must be at least %s long, got %d", count(*c.minLength, "character"), n)
		}
		if c.maxLength != nil && n > *c.maxLength {
			fail("must be at most %s long, got %d", count(*c.maxLength, "character"), n)
		}
	case '[':
		n := 0
		for range v.Elems() {
			n++
		}
		if c.minItems != nil && n < *c.minItems {
			fail("must have at least %s, got %d", count(*c.minItems, "item"), n)
		}
		if c.maxItems != nil && n > *c.maxItems {
			fail("must have at most %s, got %d", count(*c.maxItems, "item"), n)
		}
		ptr := p.String()
		for i, e := range v.Elems() {
			c.items.walk(pointer{ptr, strconv.Itoa(i), true}, e, problems)
		}
	case '{':
		c.walkObject(p.String(), v, problems)
	}
}

// walkNumber appends to problems what is wrong with the number v at p.
// It formats v only for a message, and takes no callback: a func value
// passed in would be allocated on every call, valid or not.
func (c *Checker) walkNumber(p pointer, v float64, problems *[]string) {
	fail := func(format string, bound float64) {
		*problems = append(*problems, p.at()+": "+fmt.Sprintf(format, bound, strconv.FormatFloat(v, 'g', -1, 64)))
	}
	if c.minimum != nil && v < *c.minimum {
		fail("must be at least %g, got %s", *c.minimum)
	}
	if c.maximum != nil && v > *c.maximum {
		fail("must be at most %g, got %s", *c.maximum)
	}
}

// walkObject appends to problems what is wrong with the object v at the
// pointer ptr: missing required properties, its properties' own problems,
// and unknown properties, sorted by name.
func (c *Checker) walkObject(ptr string, v jsonwire.Value, problems *[]string) {
	for _, name := range c.required {
		if _, ok := v.Member(name); !ok {
			*problems = append(*problems, ptr+"/"+escapePointer(name)+": required, but missing")
		}
	}
	for _, name := range c.order {
		if e, ok := v.Member(name); ok {
			c.props[name].walk(pointer{ptr, name, true}, e, problems)
		}
	}
	var unknown []string
	for name, e := range v.Members() {
		if _, ok := c.props[name]; ok {
			continue
		}
		if c.closed {
			unknown = append(unknown, name)
		} else {
			c.extra.walk(pointer{ptr, name, true}, e, problems)
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
func hasType(v jsonwire.Value, t string) bool {
	switch v.Kind() {
	case 'n':
		return t == "null"
	case 't', 'f':
		return t == "boolean"
	case '"':
		return t == "string"
	case '[':
		return t == "array"
	case '{':
		return t == "object"
	}
	f := v.Float()
	return t == "number" || t == "integer" && f == math.Trunc(f) && !math.IsInf(f, 0)
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
func describe(v jsonwire.Value) string {
	switch v.Kind() {
	case 'n':
		return "null"
	case 't', 'f':
		return "the boolean " + v.Text()
	case '0':
		return "the number " + strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case '"':
		s := v.Str()
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return "the string " + strconv.Quote(s)
	case '[':
		return "an array"
	}
	return "an object"
}

// escapePointer escapes a property name as a JSON pointer token.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// article puts "a" or "an" before a JSON type name.
func article(typ string) string {
	if strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}

// count says n of a noun: "1 item", "3 items".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
