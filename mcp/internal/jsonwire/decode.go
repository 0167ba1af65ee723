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
	"encoding/json"
	"errors"
	"math"
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

// IsNotification reports whether a request expects no response.
func (m *Message) IsNotification() bool { return m.ID == nil }

// IsResponse reports whether m is a response rather than a request.
func (m *Message) IsResponse() bool { return m.Method == nil }

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
	// (mcp.ErrorEvent's ID) and may write. Measured against this code, it
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
