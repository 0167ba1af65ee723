// Package jsonwire holds the JSON machinery under the server's wire: the
// message union and its decoding as encoding/json does, only faster and
// with names matched exactly (a plain line is scanned in one pass without
// reflection, its arguments into a [Value] the schema checker reads), and
// appending a JSON string without reflection.
package jsonwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

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

// LogValuer logs V as its JSON text (json.Marshal's).
type LogValuer struct{ V any }

// LogValue returns V's JSON text, or V itself when it does not marshal.
func (j LogValuer) LogValue() slog.Value {
	b, err := json.Marshal(j.V)
	if err != nil {
		return slog.AnyValue(j.V)
	}
	return slog.StringValue(string(b))
}

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: quotes, backslashes and control
// characters, U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
