package mcp

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// scanMessage decodes a line the way unmarshal does, without reflection,
// when the line is plain: valid JSON (and valid UTF-8), fields given once
// (other names are skipped), field values that are not null, and strings without escapes.
// It reports false for anything else, which unmarshal then decodes. On a
// tools/call line it takes about two thirds of unmarshal's time, with 3
// allocations instead of 9 (BenchmarkDecode), and a process's first
// message does not wait for decoders to be built by reflection.
func scanMessage(line []byte) (*message, bool) {
	if !jsontext.Value(line).IsValid(allowDuplicateNames) {
		return nil, false
	}
	s := &scanner{data: bytes.Clone(line), text: string(line), parts: new(parts)}
	m := &s.msg
	ok := s.object(messageNames, func(field int) (ok bool) {
		switch field {
		case 0:
			m.JSONRPC, ok = s.string()
		case 1:
			m.ID, ok = s.raw()
		case 2:
			m.Method, ok = s.stringPtr()
		case 3:
			m.Params, ok = s.params()
		case 4:
			m.Result, ok = s.raw()
		case 5:
			m.Error, ok = s.raw()
		}
		return ok
	})
	return m, ok
}

// scanValue decodes JSON text the way encoding/json decodes it into an
// interface value, without reflection, when the text is valid JSON (and
// valid UTF-8) whose strings have no escapes and whose numbers fit a
// float64. It reports false for anything else. On chapter 01's arguments
// it takes about 70% of encoding/json's time, with half the allocations
// (BenchmarkScanValue). valid says data is known to be valid JSON in
// valid UTF-8, which it then does not check again.
func scanValue(data []byte, valid bool) (any, bool) {
	if !valid && !jsontext.Value(data).IsValid(allowDuplicateNames) {
		return nil, false
	}
	s := &scanner{data: data, text: string(data)}
	return s.value()
}

// value reads a value as encoding/json decodes it into an interface:
// map[string]any, []any, string, float64, bool or nil. A name given twice
// keeps its last value, as in encoding/json.
func (s *scanner) value() (any, bool) {
	switch s.peek() {
	case '{':
		m := make(map[string]any)
		ok := s.members(func(start, end int) bool {
			v, ok := s.value()
			m[s.text[start:end]] = v
			return ok
		})
		return m, ok
	case '[':
		a := []any{}
		for s.i++; s.peek() != ']'; {
			v, ok := s.value()
			if !ok {
				return nil, false
			}
			a = append(a, v)
			if s.peek() == ',' {
				s.i++
			}
		}
		s.i++
		return a, true
	case '"':
		return s.string()
	}
	text, _ := s.raw()
	switch string(text) {
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return nil, true
	}
	f, err := strconv.ParseFloat(string(text), 64)
	return f, err == nil
}

// allowDuplicateNames leaves duplicate names to object, which reports
// false for a duplicate field and skips other duplicates, as encoding/json
// ignores them.
var allowDuplicateNames = jsontext.AllowDuplicateNames(true)

// The JSON names of message's, params' and requestMeta's fields, in the
// order scanMessage and its helpers number them.
var (
	messageNames = []string{"jsonrpc", "id", "method", "params", "result", "error"}
	paramsNames  = []string{"_meta", "protocolVersion", "name", "arguments", "uri", "requestId"}
	metaNames    = []string{metaProtocolVersion, metaClientCapabilities}
)

// params reads the params object into the scanner's parts.
func (s *scanner) params() (*params, bool) {
	p := &s.parts.params
	ok := s.object(paramsNames, func(field int) (ok bool) {
		switch field {
		case 0:
			p.Meta, ok = s.meta()
		case 1:
			p.ProtocolVersion, ok = s.string()
		case 2:
			p.Name, ok = s.stringPtr()
		case 3:
			p.Arguments, ok = s.raw()
			p.validArguments = ok
		case 4:
			p.URI, ok = s.stringPtr()
		case 5:
			p.RequestID, ok = s.raw()
		}
		return ok
	})
	return p, ok
}

// meta reads the _meta object of params into the scanner's parts.
func (s *scanner) meta() (*requestMeta, bool) {
	m := &s.parts.meta
	ok := s.object(metaNames, func(field int) (ok bool) {
		switch field {
		case 0:
			m.ProtocolVersion, ok = s.stringPtr()
		case 1:
			m.ClientCapabilities, ok = s.raw()
		}
		return ok
	})
	return m, ok
}

// scanner reads JSON text already known to be valid.
type scanner struct {
	data []byte // the line, which raw values share
	text string // the line as a string, which string values share
	i    int
	*parts
}

// parts holds the structs of one scanned message and the strings its
// fields point to, in one allocation.
type parts struct {
	msg     message
	params  params
	meta    requestMeta
	strs    [4]string // one for each *string field
	usedStr int
}

// peek skips whitespace and returns the next byte.
func (s *scanner) peek() byte {
	for s.i < len(s.data) && isSpace(s.data[s.i]) {
		s.i++
	}
	if s.i == len(s.data) {
		return 0
	}
	return s.data[s.i]
}

// object reads an object whose members named in names it hands to field by
// index, and whose other members (names differing only in case included)
// it skips. It reports false for anything but an object, a name given
// twice, or a false from field.
func (s *scanner) object(names []string, field func(int) bool) bool {
	var seen uint
	return s.members(func(start, end int) bool {
		name := s.data[start:end]
		switch i := slices.IndexFunc(names, func(n string) bool { return n == string(name) }); {
		case i >= 0 && seen&(1<<i) == 0:
			seen |= 1 << i
			return field(i)
		case i >= 0:
			return false
		}
		s.raw()
		return true
	})
}

// members reads an object, handing where each member's name starts and
// ends to member, which reads the value. It reports false for anything but
// an object, a name with escapes, or a false from member.
func (s *scanner) members(member func(start, end int) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	for s.peek() != '}' {
		start, end, ok := s.stringSpan()
		if !ok {
			return false
		}
		s.peek()
		s.i++ // the colon
		if !member(start, end) {
			return false
		}
		if s.peek() == ',' {
			s.i++
		}
	}
	s.i++
	return true
}

// string reads a string without escapes.
func (s *scanner) string() (string, bool) {
	start, end, ok := s.stringSpan()
	return s.text[start:end], ok
}

// stringSpan reads a string without escapes and returns where its text
// starts and ends.
func (s *scanner) stringSpan() (start, end int, ok bool) {
	if s.peek() != '"' {
		return 0, 0, false
	}
	start = s.i + 1
	end = start + bytes.IndexByte(s.data[start:], '"')
	if bytes.IndexByte(s.data[start:end], '\\') >= 0 {
		return 0, 0, false
	}
	s.i = end + 1
	return start, end, true
}

// stringPtr reads a string without escapes into one of the parts' strings
// and returns a pointer to it.
func (s *scanner) stringPtr() (*string, bool) {
	v, ok := s.string()
	if !ok || s.usedStr == len(s.strs) {
		return nil, false
	}
	p := &s.strs[s.usedStr]
	s.usedStr++
	*p = v
	return p, true
}

// raw returns the text of the next value, reporting false for null (which
// encoding/json decodes differently from other values).
func (s *scanner) raw() ([]byte, bool) {
	c := s.peek()
	start := s.i
	switch c {
	case '"':
		s.skipString()
	case '{', '[':
		s.skipComposite()
	default: // a number, true, false or null
		for s.i < len(s.data) && !isSpace(s.data[s.i]) && s.data[s.i] != ',' && s.data[s.i] != '}' && s.data[s.i] != ']' {
			s.i++
		}
	}
	return s.data[start:s.i:s.i], c != 'n'
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipComposite moves past the object or array starting at s.i.
func (s *scanner) skipComposite() {
	for depth := 0; ; {
		switch s.data[s.i] {
		case '"':
			s.skipString()
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		s.i++
		if depth == 0 {
			return
		}
	}
}

// skipString moves past the string starting at s.i.
func (s *scanner) skipString() {
	for s.i++; s.data[s.i] != '"'; s.i++ {
		if s.data[s.i] == '\\' {
			s.i++
		}
	}
	s.i++
}
