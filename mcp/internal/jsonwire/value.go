package jsonwire

import (
	"iter"
	"strconv"
	"unicode/utf8"
)

// Value is a JSON value scanned without reflection (by [ScanValue], or
// with its message by [DecodeMessage]): a node of a tree built in one
// pass over valid JSON text in valid UTF-8. It reads as encoding/json
// decodes the text into an interface value when it is [Value.Plain]. The
// zero Value is none.
type Value struct {
	t *tree
	i int32
}

// ScanValue scans data, which must be one JSON value in valid UTF-8. It
// reports false for anything else, and for nesting deeper than a thousand
// levels.
func ScanValue(data []byte) (Value, bool) {
	if !utf8.Valid(data) {
		return Value{}, false
	}
	text := string(data)
	s := &scanner{data: data, text: text, tree: &tree{text: text}}
	if !s.treeValue() || !s.atEnd() {
		return Value{}, false
	}
	return Value{s.tree, 0}, true
}

// Plain reports whether v's tree gives each name once in each object and
// has only numbers that fit a float64, as encoding/json needs to decode it
// into an interface value without losing or refusing anything.
func (v Value) Plain() bool { return v.t != nil && !v.t.odd }

// Kind returns the kind of v: '{', '[', '"', '0' for a number, 't' for
// true, 'f' for false, 'n' for null.
func (v Value) Kind() byte { return v.t.nodes[v.i].kind }

// Text returns v's JSON text.
func (v Value) Text() string {
	n := &v.t.nodes[v.i]
	return v.t.text[n.start:n.end]
}

// Str returns the text of a string value, decoded.
func (v Value) Str() string {
	n := &v.t.nodes[v.i]
	s := v.t.text[n.start+1 : n.end-1]
	if n.escaped {
		return unquote(s)
	}
	return s
}

// Float returns the value of a number as encoding/json decodes it.
func (v Value) Float() float64 {
	f, _ := strconv.ParseFloat(v.Text(), 64)
	return f
}

// Elems returns the elements of an array.
func (v Value) Elems() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		end := v.t.nodes[v.i].next
		for i, k := v.i+1, 0; i < end; i, k = v.t.nodes[i].next, k+1 {
			if !yield(k, Value{v.t, i}) {
				return
			}
		}
	}
}

// Members returns the members of an object: each name, decoded, and value.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		end := v.t.nodes[v.i].next
		for i := v.i + 1; i < end; i = v.t.nodes[i+1].next {
			if !yield(Value{v.t, i}.Str(), Value{v.t, i + 1}) {
				return
			}
		}
	}
}

// Member returns the value of an object's member named name.
func (v Value) Member(name string) (Value, bool) {
	for n, m := range v.Members() {
		if n == name {
			return m, true
		}
	}
	return Value{}, false
}
