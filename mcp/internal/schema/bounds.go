package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// For infers the JSON Schema of T as jsonschema.For does, then adds the
// bounds that T's struct fields declare in a tag of their own, mcp:
//
//	Limit int `json:"limit" mcp:"minimum=1,maximum=50"`
//
// jsonschema-go keeps its own jsonschema tag for a field's description
// and reserves every "WORD=" in it, so the bounds have a key of their
// own, beside the field they bound, where a reader of the type sees them.
// The keywords are minimum and maximum (numbers), minLength and maxLength
// (strings, in characters), and minItems and maxItems (arrays); a tag
// that names another keyword, or a value that is not a number, is an
// error.
func For[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	return s, addBounds(s, reflect.TypeFor[T]())
}

// addBounds adds to s, inferred from t, the bounds of t's fields' mcp
// tags, and of the fields of the types t is made of.
func addBounds(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if s.Items != nil {
			return addBounds(s.Items, t.Elem())
		}
	case reflect.Map:
		if s.AdditionalProperties != nil {
			return addBounds(s.AdditionalProperties, t.Elem())
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			prop := s.Properties[name]
			if !f.IsExported() || prop == nil {
				continue
			}
			if tag, ok := f.Tag.Lookup("mcp"); ok {
				if err := setBounds(prop, tag); err != nil {
					return fmt.Errorf("field %s: mcp tag %q: %v", f.Name, tag, err)
				}
			}
			if err := addBounds(prop, f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// setBounds sets the bounds a tag lists, "keyword=value" each, separated by
// commas.
func setBounds(s *jsonschema.Schema, tag string) error {
	for item := range strings.SplitSeq(tag, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return fmt.Errorf("%q is not keyword=value", item)
		}
		var err error
		switch key {
		case "minimum":
			s.Minimum, err = parseBound[float64](value)
		case "maximum":
			s.Maximum, err = parseBound[float64](value)
		case "minLength":
			s.MinLength, err = parseBound[int](value)
		case "maxLength":
			s.MaxLength, err = parseBound[int](value)
		case "minItems":
			s.MinItems, err = parseBound[int](value)
		case "maxItems":
			s.MaxItems, err = parseBound[int](value)
		default:
			return fmt.Errorf("unknown keyword %q: use minimum, maximum, minLength, maxLength, minItems or maxItems", key)
		}
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", key, value)
		}
	}
	return nil
}

// parseBound parses the value of a bound: a number, or for a length or a
// count a whole number at least 0.
func parseBound[T float64 | int](value string) (*T, error) {
	var v T
	switch p := any(&v).(type) {
	case *float64:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, err
		}
		*p = f
	case *int:
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return nil, strconv.ErrSyntax
		}
		*p = n
	}
	return &v, nil
}
