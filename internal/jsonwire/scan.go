package jsonwire

import (
	"iter"
	"strconv"
	"unicode/utf16"
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

// Any returns v as encoding/json decodes its text into an interface
// value, when v is plain: a map[string]any, []any, string, float64, bool
// or nil.
func (v Value) Any() any {
	switch v.Kind() {
	case '{':
		m := make(map[string]any)
		for name, e := range v.Members() {
			m[name] = e.Any()
		}
		return m
	case '[':
		s := []any{}
		for _, e := range v.Elems() {
			s = append(s, e.Any())
		}
		return s
	case '"':
		return v.Str()
	case '0':
		return v.Float()
	case 't', 'f':
		return v.Kind() == 't'
	}
	return nil
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

// scanner reads JSON text in one pass without reflection, checking it as
// it goes: it skips a value, or reads it into a tree of nodes (see
// [Value]). Its methods report false for text that is not valid JSON, and
// for valid text it leaves to the decoders by reflection (nesting deeper
// than maxDepth); a caller then decodes the text that way instead.
type scanner struct {
	data  []byte // the text, which raw values share
	text  string // the text as a string, which strings share
	i     int
	depth int
	tree  *tree // where treeValue puts its nodes
}

// maxDepth bounds the nesting the scanner reads; deeper text is left to
// the decoders by reflection, which give their own error past 10,000.
const maxDepth = 1000

// tree is the nodes of a scanned value, in the order they start.
type tree struct {
	text  string
	nodes []node
	odd   bool // a name repeated in an object, or a number beyond float64
}

// node is one value of a tree: an object's members are its name (a
// string node) and value, in turn.
type node struct {
	start, end int32 // the value's text, quotes included
	next       int32 // the index of the node after this value's contents
	kind       byte  // '{', '[', '"', '0' (a number), 't', 'f' or 'n'
	escaped    bool  // a string with escapes
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// peek skips whitespace and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	for s.i < len(s.data) && isSpace(s.data[s.i]) {
		s.i++
	}
	if s.i == len(s.data) {
		return 0
	}
	return s.data[s.i]
}

// atEnd reports whether only whitespace is left.
func (s *scanner) atEnd() bool { return s.peek() == 0 && s.i == len(s.data) }

// members reads an object, handing each member's name (its text with
// quotes, and whether it has escapes) to member, which reads the value.
func (s *scanner) members(member func(start, end int, escaped bool) bool) bool {
	if s.peek() != '{' || s.depth == maxDepth {
		return false
	}
	s.depth++
	s.i++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		start := s.i
		escaped, ok := s.skipString()
		end := s.i
		if !ok || s.peek() != ':' {
			return false
		}
		s.i++
		if !member(start, end, escaped) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
			s.peek()
		case '}':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// elements reads an array, calling elem for each element.
func (s *scanner) elements(elem func() bool) bool {
	if s.peek() != '[' || s.depth == maxDepth {
		return false
	}
	s.depth++
	s.i++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// skipValue reads a value and returns its text.
func (s *scanner) skipValue() ([]byte, bool) {
	c := s.peek()
	start := s.i
	var ok bool
	switch c {
	case '{':
		ok = s.members(func(int, int, bool) bool { _, ok := s.skipValue(); return ok })
	case '[':
		ok = s.elements(func() bool { _, ok := s.skipValue(); return ok })
	case '"':
		_, ok = s.skipString()
	default:
		_, ok = s.scalar()
	}
	return s.data[start:s.i:s.i], ok
}

// skipString reads a string at s.i, reporting whether it has escapes.
// The text is known to be valid UTF-8.
func (s *scanner) skipString() (escaped, ok bool) {
	if s.i == len(s.data) || s.data[s.i] != '"' {
		return false, false
	}
	for i := s.i + 1; i < len(s.data); {
		switch c := s.data[i]; {
		case c == '"':
			s.i = i + 1
			return escaped, true
		case c < ' ':
			return false, false
		case c != '\\':
			i++
		case i+1 == len(s.data):
			return false, false
		case s.data[i+1] == 'u':
			if i+6 > len(s.data) || !isHex4(s.data[i+2:i+6]) {
				return false, false
			}
			escaped, i = true, i+6
		default:
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				return false, false
			}
			escaped, i = true, i+2
		}
	}
	return false, false
}

// isHex4 reports whether b is four hexadecimal digits.
func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// scalar reads a number, true, false or null, returning its kind.
func (s *scanner) scalar() (byte, bool) {
	rest := s.data[s.i:]
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
			s.i += len(lit)
			return lit[0], true
		}
	}
	// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
	i := 0
	digits := func() int {
		n := 0
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(rest) && rest[i] == '-' {
		i++
	}
	switch {
	case i < len(rest) && rest[i] == '0':
		i++
	case digits() == 0:
		return 0, false
	}
	if i < len(rest) && rest[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(rest) && (rest[i] == 'e' || rest[i] == 'E') {
		i++
		if i < len(rest) && (rest[i] == '+' || rest[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	s.i += i
	return '0', true
}

// treeValue reads a value into s.tree's nodes.
func (s *scanner) treeValue() bool {
	t := s.tree
	c := s.peek()
	at := len(t.nodes)
	t.nodes = append(t.nodes, node{start: int32(s.i), kind: c})
	var ok bool
	switch c {
	case '{':
		ok = s.members(func(start, end int, escaped bool) bool {
			t.nodes = append(t.nodes, node{start: int32(start), end: int32(end), next: int32(len(t.nodes) + 1), kind: '"', escaped: escaped})
			return s.treeValue()
		})
		t.nodes[at].next = int32(len(t.nodes))
		if ok && !t.odd && t.repeatsName(at) {
			t.odd = true
		}
	case '[':
		ok = s.elements(s.treeValue)
	case '"':
		t.nodes[at].escaped, ok = s.skipString()
	default:
		t.nodes[at].kind, ok = s.scalar()
		if ok && t.nodes[at].kind == '0' {
			if _, err := strconv.ParseFloat(s.text[t.nodes[at].start:s.i], 64); err != nil {
				t.odd = true // beyond float64's range
			}
		}
	}
	t.nodes[at].end, t.nodes[at].next = int32(s.i), int32(len(t.nodes))
	return ok
}

// repeatsName reports whether the object at node i gives a name twice.
func (t *tree) repeatsName(i int) bool {
	v := Value{t, int32(i)}
	n := 0
	for range v.Members() {
		n++
	}
	if n <= 8 {
		for name, m := range v.Members() {
			for other, o := range v.Members() {
				if o.i >= m.i {
					break
				}
				if other == name {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]bool, n)
	for name := range v.Members() {
		if seen[name] {
			return true
		}
		seen[name] = true
	}
	return false
}

// unquote returns the text of a JSON string with escapes, given without
// its quotes, as encoding/json decodes it: an escaped UTF-16 surrogate
// that is not half of a pair becomes U+FFFD.
func unquote(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2 = hex4(s[i+2:])
				}
				if r = utf16.DecodeRune(r, r2); r != utf8.RuneError {
					i += 6
				}
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // '"', '\\' or '/'
			b = append(b, s[i+1])
		}
		i += 2
	}
	return string(b)
}

// hex4 returns the value of the four hexadecimal digits s starts with.
func hex4(s string) rune {
	n, _ := strconv.ParseUint(s[:4], 16, 32)
	return rune(n)
}
