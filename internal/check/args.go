package check

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Break is a set of arguments that makes a whole tool call invalid against
// the tool's input schema, and how.
type Break struct {
	How  string         // "title missing", "title of the wrong type", ...
	Prop string         // the property it breaks
	Args map[string]any // the arguments: fitting values for the others where the generator finds them
	Safe bool           // true when it breaks only a required property (the default check sends it)
}

// breakTag marks the values the check makes up, so that a reader of a
// server's log can tell them.
const breakTag = "mcpc-check"

// Breaks returns arguments that break the input schema s: for each required
// property, the arguments without it and with a value of a type it does not
// allow (Safe); and, for the tools the check may call, a value past each
// stated bound, and an unknown property where the schema allows none.
func Breaks(s *jsonschema.Schema) []Break {
	if s == nil {
		return nil
	}
	var out []Break
	for _, name := range propNames(s) {
		p := s.Properties[name]
		required := slices.Contains(s.Required, name)
		if required {
			out = append(out, Break{How: name + " missing", Prop: name, Args: fitExcept(s, name), Safe: true})
		}
		if w, ok := wrongType(p); ok && required {
			args := fitExcept(s, name)
			args[name] = w
			out = append(out, Break{How: name + " of the wrong type", Prop: name, Args: args, Safe: true})
		}
		if p == nil {
			continue
		}
		for _, past := range pastBounds(p) {
			args := fitExcept(s, name)
			args[name] = past.value
			out = append(out, Break{How: name + " " + past.how, Prop: name, Args: args})
		}
	}
	if closed(s) {
		args := fitExcept(s, "")
		name := breakTag + "-unknown"
		for s.Properties[name] != nil {
			name += "-"
		}
		args[name] = true
		out = append(out, Break{How: "an unknown property", Prop: name, Args: args})
	}
	return out
}

// propNames returns the properties of s, required first, in a stable order.
func propNames(s *jsonschema.Schema) []string {
	names := slices.Sorted(maps.Keys(s.Properties))
	for _, r := range slices.Backward(s.Required) {
		if i := slices.Index(names, r); i >= 0 {
			names = slices.Delete(names, i, i+1)
		}
		names = slices.Insert(names, 0, r)
	}
	return slices.Compact(names)
}

// closed reports whether s allows no properties but its own.
func closed(s *jsonschema.Schema) bool {
	a := s.AdditionalProperties
	return a != nil && a.Not != nil && isEmpty(a.Not)
}

func isEmpty(s *jsonschema.Schema) bool {
	b, _ := s.MarshalJSON()
	return string(b) == "true" || string(b) == "{}"
}

// types returns the JSON types s allows; nil for any.
func types(s *jsonschema.Schema) []string {
	if s == nil {
		return nil
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

// wrongType returns a value of a JSON type s does not allow, when s
// restricts the type.
func wrongType(s *jsonschema.Schema) (any, bool) {
	allowed := types(s)
	if len(allowed) == 0 {
		return nil, false
	}
	candidates := []struct {
		typ   string
		value any
	}{{"string", breakTag}, {"integer", 42}, {"boolean", true}, {"object", map[string]any{}}, {"array", []any{}}, {"null", nil}}
	for _, c := range candidates {
		ok := slices.Contains(allowed, c.typ) || c.typ == "integer" && slices.Contains(allowed, "number")
		if !ok {
			return c.value, true
		}
	}
	return nil, false
}

type past struct {
	how   string
	value any
}

// pastBounds returns values just past each bound s states, of a type s
// allows.
func pastBounds(s *jsonschema.Schema) []past {
	t := types(s)
	var out []past
	isInt := slices.Contains(t, "integer") && !slices.Contains(t, "number")
	if slices.Contains(t, "integer") || slices.Contains(t, "number") {
		step := 0.5
		if isInt {
			step = 1
		}
		num := func(f float64) any {
			if isInt {
				return int64(f)
			}
			return f
		}
		if m := s.Maximum; m != nil && finite(*m) && (!isInt || *m == math.Trunc(*m)) && math.Abs(*m) < 1<<52 {
			out = append(out, past{"over its maximum", num(*m + step)})
		}
		if m := s.Minimum; m != nil && finite(*m) && (!isInt || *m == math.Trunc(*m)) && math.Abs(*m) < 1<<52 {
			out = append(out, past{"under its minimum", num(*m - step)})
		}
	}
	if slices.Contains(t, "string") {
		if m := s.MaxLength; m != nil && *m >= 0 && *m < 1<<20 {
			out = append(out, past{"longer than its maxLength", strings.Repeat("x", *m+1)})
		}
		if m := s.MinLength; m != nil && *m > 0 && *m < 1<<20 {
			out = append(out, past{"shorter than its minLength", strings.Repeat("x", *m-1)})
		}
	}
	if slices.Contains(t, "array") {
		if m := s.MaxItems; m != nil && *m >= 0 && *m < 1<<12 {
			items := make([]any, *m+1)
			for i := range items {
				items[i], _ = Fit(s.Items)
			}
			out = append(out, past{"with more items than its maxItems", items})
		}
	}
	return out
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// fitExcept returns arguments for s with a fitting value for every
// required property but skip.
func fitExcept(s *jsonschema.Schema, skip string) map[string]any {
	args := map[string]any{}
	for _, name := range s.Required {
		if name != skip {
			args[name], _ = Fit(s.Properties[name])
		}
	}
	return args
}

// Fit returns a value that fits s, as far as the generator can tell, and
// whether it found one: a const or the first enum value, else the least
// value of s's first type within its bounds. Patterns and formats are not
// followed.
func Fit(s *jsonschema.Schema) (any, bool) {
	return fit(s, 0)
}

func fit(s *jsonschema.Schema, depth int) (any, bool) {
	if s == nil {
		return breakTag, true
	}
	if depth > 16 {
		return nil, false
	}
	switch {
	case s.Const != nil:
		return *s.Const, true
	case len(s.Enum) > 0:
		return s.Enum[0], true
	}
	t := types(s)
	if len(t) == 0 {
		return breakTag, true
	}
	switch t[0] {
	case "string":
		n := 0
		if s.MinLength != nil {
			n = *s.MinLength
		}
		v := breakTag
		if len(v) < n {
			v += strings.Repeat("x", n-len(v))
		}
		if s.MaxLength != nil && len(v) > *s.MaxLength {
			v = v[:max(n, *s.MaxLength)]
		}
		return v, s.MaxLength == nil || len(v) <= *s.MaxLength
	case "integer", "number":
		v := 1.0
		if s.Minimum != nil {
			v = math.Ceil(*s.Minimum)
		}
		if s.ExclusiveMinimum != nil && v <= *s.ExclusiveMinimum {
			v = math.Floor(*s.ExclusiveMinimum) + 1
		}
		if s.Maximum != nil && v > *s.Maximum {
			v = math.Floor(*s.Maximum)
		}
		if t[0] == "integer" {
			return int64(v), true
		}
		return v, true
	case "boolean":
		return false, true
	case "null":
		return nil, true
	case "array":
		n := 0
		if s.MinItems != nil {
			n = min(*s.MinItems, 64)
		}
		items := make([]any, n)
		ok := true
		for i := range items {
			var itemOK bool
			items[i], itemOK = fit(s.Items, depth+1)
			ok = ok && itemOK
		}
		return items, ok
	case "object":
		obj := map[string]any{}
		ok := true
		for _, name := range s.Required {
			var propOK bool
			obj[name], propOK = fit(s.Properties[name], depth+1)
			ok = ok && propOK
		}
		return obj, ok
	}
	return nil, false
}
