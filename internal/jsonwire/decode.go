// Package jsonwire is the JSON layer under the server's wire, laid out by
// concern as encoding/json lays out its own:
//
//   - scan.go reads JSON text in one pass without reflection, into a tree
//     of [Value] nodes;
//   - decode.go decodes a line into a [Message] (a plain line by the
//     scanner, its arguments included), and a scanned Value into a Go
//     value; any other line or value goes to encoding/json's rules, names
//     matched exactly;
//   - encode.go appends JSON strings as encoding/json writes them.
package jsonwire

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Message is one decoded JSON-RPC message. Every line is decoded once, into
// this union: the envelope and every params field any method reads.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  *Params         `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// Params is the union of the params of every method the server handles.
type Params struct {
	Meta *RequestMeta `json:"_meta"`

	// initialize
	ProtocolVersion string `json:"protocolVersion"`
	// tools/call
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Args      Value           `json:"-"` // Arguments scanned with the line, if it was
	// resources/read
	URI *string `json:"uri"`
	// notifications/cancelled
	RequestID json.RawMessage `json:"requestId"`
}

// RequestMeta holds the _meta keys the server reads: those of a modern
// request, and the W3C Trace Context a client may send in any era.
type RequestMeta struct {
	ProtocolVersion    *string         `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	Traceparent        Passed          `json:"traceparent"`
	Tracestate         Passed          `json:"tracestate"`
}

// Passed is a string the server only passes on, such as a traceparent: a
// JSON string, or "" for any other value, which is no error.
type Passed string

// UnmarshalJSON keeps the string data holds, and ignores any other value.
func (p *Passed) UnmarshalJSON(data []byte) error {
	var s string
	if len(data) > 0 && data[0] == '"' && json.Unmarshal(data, &s) == nil {
		*p = Passed(s)
	}
	return nil
}

// DecodeMessage decodes a line into a Message as [Unmarshal] does, error
// texts included. A plain line (valid UTF-8; each field of Message,
// Params and RequestMeta given once, and not null, but for the Passed
// ones; types right) it scans
// in one pass without reflection, which also scans the arguments into
// Params.Args; any other line it leaves to Unmarshal, whose partly decoded
// Message it returns with the error.
func DecodeMessage(line []byte) (*Message, error) {
	if m := scanMessage(line); m != nil {
		return m, nil
	}
	m := new(Message)
	return m, Unmarshal(line, m)
}

// The JSON names of Message's, Params' and RequestMeta's fields, in the
// order scanMessage and its helpers number them.
var (
	messageNames = []string{"jsonrpc", "id", "method", "params", "result", "error"}
	paramsNames  = []string{"_meta", "protocolVersion", "name", "arguments", "uri", "requestId"}
	metaNames    = []string{"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities", "traceparent", "tracestate"}
)

// parts holds a scanned message, its params, their strings and the first
// nodes of its arguments, in one allocation of at most 512 bytes, the
// size class it has always had (TestPartsSize). Seven nodes hold an
// object of up to three members, as eight did.
type parts struct {
	msg     Message
	params  Params
	meta    RequestMeta
	strs    [4]string // one for each *string field
	usedStr int
	args    tree
	nodes   [7]node
}

// messageScanner is a scanner filling parts.
type messageScanner struct {
	scanner
	*parts
}

// scanMessage scans a plain line (see DecodeMessage), or returns nil.
func scanMessage(line []byte) *Message {
	if len(line) > math.MaxInt32 || !utf8.Valid(line) {
		return nil
	}
	// The line is copied twice, once as bytes and once as a string, on
	// purpose. The raw values (the id, the arguments) must outlive line,
	// which the reader's next line overwrites once a slow handler hands
	// reading over, so they share a copy of their own; the strings (the
	// method, the tool's name, the arguments' strings the schema checks)
	// share the string copy, and need no allocation each. One copy shared
	// by both would take package unsafe and a promise that nothing writes
	// into a json.RawMessage, one of which a caller of the server holds
	// (mcp.RequestInfo's ID) and may write. Measured against this code, it
	// saves one allocation and 112 to 224 bytes per tools/call, and no time
	// that rises above BenchmarkToolsCall's noise.
	data := bytes.Clone(line)
	s := &messageScanner{scanner{data: data, text: string(data)}, new(parts)}
	s.args.text, s.args.nodes = s.text, s.nodes[:0]
	s.tree = &s.args
	m := &s.msg
	ok := s.fields(messageNames, func(field int) (ok bool) {
		switch field {
		case 0:
			m.JSONRPC, ok = s.str()
		case 1:
			m.ID, ok = s.raw()
		case 2:
			m.Method, ok = s.strPtr()
		case 3:
			m.Params, ok = s.params()
		case 4:
			m.Result, ok = s.raw()
		case 5:
			m.Error, ok = s.raw()
		}
		return ok
	})
	if !ok || !s.atEnd() {
		return nil
	}
	return m
}

// params reads the params object into the parts.
func (s *messageScanner) params() (*Params, bool) {
	p := &s.parts.params
	ok := s.fields(paramsNames, func(field int) (ok bool) {
		switch field {
		case 0:
			p.Meta, ok = s.meta()
		case 1:
			p.ProtocolVersion, ok = s.str()
		case 2:
			p.Name, ok = s.strPtr()
		case 3:
			p.Arguments, p.Args, ok = s.arguments()
		case 4:
			p.URI, ok = s.strPtr()
		case 5:
			p.RequestID, ok = s.raw()
		}
		return ok
	})
	return p, ok
}

// meta reads the _meta object of params into the parts.
func (s *messageScanner) meta() (*RequestMeta, bool) {
	m := &s.parts.meta
	ok := s.fields(metaNames, func(field int) (ok bool) {
		switch field {
		case 0:
			m.ProtocolVersion, ok = s.strPtr()
		case 1:
			m.ClientCapabilities, ok = s.raw()
		case 2:
			m.Traceparent, ok = s.passed()
		case 3:
			m.Tracestate, ok = s.passed()
		}
		return ok
	})
	return m, ok
}

// passed reads any value: a string's text, or "" for any other value.
func (s *messageScanner) passed() (Passed, bool) {
	if s.peek() == '"' {
		v, ok := s.str()
		return Passed(v), ok
	}
	_, ok := s.skipValue()
	return "", ok
}

// fields reads an object whose members named exactly as one of names it
// hands to field by index, and whose other members it skips. It reports
// false for a name of names given twice.
func (s *messageScanner) fields(names []string, field func(int) bool) bool {
	var seen uint
	return s.members(func(start, end int, escaped bool) bool {
		name := s.text[start+1 : end-1]
		if escaped {
			name = unquote(name)
		}
		for i, n := range names {
			if n == name {
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
				return field(i)
			}
		}
		_, ok := s.skipValue()
		return ok
	})
}

// str reads a string.
func (s *messageScanner) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i
	escaped, ok := s.skipString()
	if !ok {
		return "", false
	}
	text := s.text[start+1 : s.i-1]
	if escaped {
		text = unquote(text)
	}
	return text, true
}

// strPtr reads a string into one of the parts' strings and returns a
// pointer to it.
func (s *messageScanner) strPtr() (*string, bool) {
	v, ok := s.str()
	if !ok || s.usedStr == len(s.strs) {
		return nil, false
	}
	p := &s.strs[s.usedStr]
	s.usedStr++
	*p = v
	return p, true
}

// raw returns the text of the next value, reporting false for null, which
// Unmarshal decodes differently from other values.
func (s *messageScanner) raw() ([]byte, bool) {
	if s.peek() == 'n' {
		return nil, false
	}
	return s.skipValue()
}

// arguments reads the arguments value into the parts' tree.
func (s *messageScanner) arguments() ([]byte, Value, bool) {
	if s.peek() == 'n' {
		return nil, Value{}, false
	}
	start, root := s.i, int32(len(s.tree.nodes))
	ok := s.treeValue()
	return s.data[start:s.i:s.i], Value{s.tree, root}, ok
}

// Unmarshal decodes data into v as encoding/json does, error texts
// included, except that member names match field names exactly, as
// JSON-RPC and MCP names are case-sensitive ("Id" is not "id"). It decodes
// with the v2 engine of go-json-experiment/json in its
// encoding/json-compatible mode (jsonv1), which is faster and allocates
// less (BenchmarkUnmarshalEngines). Only when that engine fails does it
// decode again, from v's zero value, with encoding/json itself, whose
// error texts the wire carries.
func Unmarshal[T any](data []byte, v *T) error {
	if jsonv2.Unmarshal(data, v, exactNames) == nil {
		return nil
	}
	var zero T
	*v = zero
	return json.Unmarshal(data, v)
}

// exactNames is encoding/json's behaviour with names matched exactly.
var exactNames = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv2.MatchCaseInsensitiveNames(false))

// ExactID returns the id of a JSON object whose member types may be wrong:
// the value of its member named exactly "id", or nil.
func ExactID(line []byte) json.RawMessage {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	jsonv2.Unmarshal(line, &v, exactNames)
	return v.ID
}

// TypeError returns the type error in err's chain, or nil. (A function of
// its own, so that a caller's every call does not allocate the target
// errors.As writes to.)
func TypeError(err error) *json.UnmarshalTypeError {
	var typ *json.UnmarshalTypeError
	errors.As(err, &typ)
	return typ
}

// LeadingMember returns the value of the first member named name of the
// JSON object that starts with prefix, when the members before it are
// valid JSON; nil otherwise, or when that value is cut short.
func LeadingMember(prefix []byte, name string) jsontext.Value {
	dec := jsontext.NewDecoder(bytes.NewReader(prefix), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		found := tok.String() == name // before ReadValue voids tok
		v, err := dec.ReadValue()
		switch {
		case err != nil:
			return nil
		case found:
			return v
		}
	}
}

// ValidID reports whether id, a JSON value as decoding leaves it (or empty,
// for none), is a JSON-RPC id a response can echo as it is: a number, or a
// string in valid UTF-8. A string in invalid UTF-8 is none. JSON exchanged
// between systems must be UTF-8 (RFC 8259, section 8.1); echoing its bytes
// would make the response invalid JSON, and echoing it repaired, as
// encoding/json would decode it (each bad byte U+FFFD), would answer an id
// the client never sent. JSON-RPC 2.0 answers a request whose id cannot be
// read with the id null. Null, booleans, objects and arrays are no ids
// either. The server (package mcp) and internal/lockstep, which judges any
// server's replies, both read an id with ValidID.
func ValidID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	c := id[0]
	return c == '"' && utf8.Valid(id) || c == '-' || ('0' <= c && c <= '9')
}

// Decoder decodes a tool's arguments into values of type T. A [Value]
// that is plain, into a T made only of what a scanned tree can fill
// (structs of named fields, strings, booleans, numbers, slices, maps with
// string keys, pointers and empty interfaces), it fills in one walk over
// the tree, so the arguments are not parsed a second time. Anything else
// it leaves to [Unmarshal]. Either way the result is Unmarshal's, error
// included (TestDecoderMatchesUnmarshal).
type Decoder[T any] struct {
	fill filler // nil when T has a part the tree cannot fill
}

// A filler sets dst, a settable value of the type it was made for, from v,
// as Unmarshal would from v's text; it reports false for a v it cannot
// fill so, which may be left partly written.
type filler func(v Value, dst reflect.Value) bool

// NewDecoder returns a Decoder for T.
func NewDecoder[T any]() *Decoder[T] {
	return &Decoder[T]{fill: fillerFor(reflect.TypeFor[T](), map[reflect.Type]*filler{})}
}

// Decode decodes into dst the arguments raw, which v holds scanned (or
// the zero Value when they were not scanned), as Unmarshal decodes raw
// into T's zero value.
func (d *Decoder[T]) Decode(v Value, raw []byte, dst *T) error {
	var zero T
	*dst = zero
	if d.fill != nil && v.Plain() && d.fill(v, reflect.ValueOf(dst).Elem()) {
		return nil
	}
	*dst = zero
	return Unmarshal(raw, dst)
}

// The interfaces by which a type decodes itself, which only Unmarshal
// honours.
var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fillerFor returns the filler of t, or nil when a scanned tree cannot
// fill t as Unmarshal would. made holds the fillers being made, so that a
// recursive type refers to its own.
func fillerFor(t reflect.Type, made map[reflect.Type]*filler) filler {
	if p := reflect.PointerTo(t); p.Implements(unmarshalerType) || p.Implements(textUnmarshalerType) {
		return nil
	}
	if f := made[t]; f != nil {
		return func(v Value, dst reflect.Value) bool { return *f != nil && (*f)(v, dst) }
	}
	f := new(filler)
	made[t] = f
	*f = kindFiller(t, made)
	return *f
}

// kindFiller returns the filler of t by its kind, or nil. A null leaves a
// value as it is, and sets a pointer, slice, map or interface to nil, as
// Unmarshal does.
func kindFiller(t reflect.Type, made map[reflect.Type]*filler) filler {
	switch t.Kind() {
	case reflect.String:
		return func(v Value, dst reflect.Value) bool {
			if v.Kind() == '"' {
				dst.SetString(v.Str())
			}
			return v.Kind() == '"' || v.Kind() == 'n'
		}
	case reflect.Bool:
		return func(v Value, dst reflect.Value) bool {
			if k := v.Kind(); k == 't' || k == 'f' {
				dst.SetBool(k == 't')
				return true
			}
			return v.Kind() == 'n'
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return numberFiller(func(text string, dst reflect.Value) error {
			n, err := strconv.ParseInt(text, 10, t.Bits())
			dst.SetInt(n)
			return err
		})
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return numberFiller(func(text string, dst reflect.Value) error {
			n, err := strconv.ParseUint(text, 10, t.Bits())
			dst.SetUint(n)
			return err
		})
	case reflect.Float32, reflect.Float64:
		return numberFiller(func(text string, dst reflect.Value) error {
			f, err := strconv.ParseFloat(text, t.Bits())
			dst.SetFloat(f)
			return err
		})
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil
		}
		return func(v Value, dst reflect.Value) bool {
			if v.Kind() == 'n' {
				dst.SetZero()
			} else {
				dst.Set(reflect.ValueOf(v.Any()))
			}
			return true
		}
	case reflect.Pointer:
		return pointerFiller(t, fillerFor(t.Elem(), made))
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // base64 text
			return nil
		}
		return sliceFiller(t, fillerFor(t.Elem(), made))
	case reflect.Map:
		if t.Key().Kind() != reflect.String || reflect.PointerTo(t.Key()).Implements(textUnmarshalerType) {
			return nil
		}
		return mapFiller(t, fillerFor(t.Elem(), made))
	case reflect.Struct:
		return structFiller(t, made)
	}
	return nil
}

// numberFiller returns the filler of a number type whose text parse sets.
func numberFiller(parse func(text string, dst reflect.Value) error) filler {
	return func(v Value, dst reflect.Value) bool {
		if v.Kind() == '0' {
			return parse(v.Text(), dst) == nil
		}
		return v.Kind() == 'n'
	}
}

// pointerFiller returns the filler of pointer type t, which fills through
// the pointer with elem, allocating when it is nil.
func pointerFiller(t reflect.Type, elem filler) filler {
	if elem == nil {
		return nil
	}
	return func(v Value, dst reflect.Value) bool {
		if v.Kind() == 'n' {
			dst.SetZero()
			return true
		}
		if dst.IsNil() {
			dst.Set(reflect.New(t.Elem()))
		}
		return elem(v, dst.Elem())
	}
}

// sliceFiller returns the filler of slice type t, whose elements elem
// fills.
func sliceFiller(t reflect.Type, elem filler) filler {
	if elem == nil {
		return nil
	}
	return func(v Value, dst reflect.Value) bool {
		switch v.Kind() {
		case 'n':
			dst.SetZero()
			return true
		case '[':
		default:
			return false
		}
		n := 0
		for range v.Elems() {
			n++
		}
		s := reflect.MakeSlice(t, n, n)
		for i, e := range v.Elems() {
			if !elem(e, s.Index(i)) {
				return false
			}
		}
		dst.Set(s)
		return true
	}
}

// mapFiller returns the filler of map type t, with string keys, whose
// values elem fills.
func mapFiller(t reflect.Type, elem filler) filler {
	if elem == nil {
		return nil
	}
	return func(v Value, dst reflect.Value) bool {
		switch v.Kind() {
		case 'n':
			dst.SetZero()
			return true
		case '{':
		default:
			return false
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMap(t))
		}
		for name, m := range v.Members() {
			e := reflect.New(t.Elem()).Elem()
			if !elem(m, e) {
				return false
			}
			dst.SetMapIndex(reflect.ValueOf(name).Convert(t.Key()), e)
		}
		return true
	}
}

// field is a struct field a member fills.
type field struct {
	name  string // the member's name, matched exactly
	index int
	fill  filler
}

// structFiller returns the filler of struct type t: each member named
// exactly as a field's JSON name fills it; other members are skipped. A
// struct with an embedded field, a ",string" option or two fields of one
// name is left to Unmarshal.
func structFiller(t reflect.Type, made map[reflect.Type]*filler) filler {
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil
		}
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fill := fillerFor(sf.Type, made)
		if fill == nil || slices.Contains(strings.Split(opts, ","), "string") ||
			slices.ContainsFunc(fields, func(f field) bool { return f.name == name }) {
			return nil
		}
		fields = append(fields, field{name, i, fill})
	}
	return func(v Value, dst reflect.Value) bool {
		switch v.Kind() {
		case 'n':
			return true
		case '{':
		default:
			return false
		}
		for name, m := range v.Members() {
			for _, f := range fields {
				if f.name == name {
					if !f.fill(m, dst.Field(f.index)) {
						return false
					}
					break
				}
			}
		}
		return true
	}
}
