package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// message and params are the decoded message and the union of every
// method's params.
type (
	message = jsonwire.Message
	params  = jsonwire.Params
)

// decodeError is what decode reports when a line is not a usable message:
// the error to answer with, and the id to answer to (nil for null).
type decodeError struct {
	id  json.RawMessage
	err *Error
}

// decode parses one JSON-RPC message. A line that is not JSON is a parse
// error; JSON that is not a message is an invalid request, answered with the
// id when it can be read; a request whose params have the wrong shape is
// invalid params. A notification with bad params is returned without them,
// since notifications are never answered.
func decode(line []byte) (*message, *decodeError) {
	var typ *json.UnmarshalTypeError
	m, err := jsonwire.DecodeMessage(line)
	if err != nil {
		if typ = jsonwire.TypeError(err); typ == nil {
			return nil, &decodeError{nil, errParseError.error(err.Error())}
		}
		// encoding/json, which read the line for its error, matches
		// names in any case: the id is the member named exactly "id".
		m.ID = jsonwire.ExactID(line)
	}
	if typ != nil && typ.Field == "" {
		return nil, &decodeError{nil, errNotAnObject.error()}
	}
	id := m.ID
	if !jsonwire.ValidID(id) {
		id = nil
	}
	badParams := typ != nil && strings.HasPrefix(typ.Field, "params")
	switch {
	case typ != nil && !badParams:
		return nil, &decodeError{id, errMemberType.error(typeErrorValues(typ))}
	case m.Method == nil && (m.Result != nil || m.Error != nil):
		// A response, whatever its id: answering one, even a malformed
		// one, could start two peers answering each other forever.
		return m, nil
	case m.JSONRPC != "2.0":
		return nil, &decodeError{id, errJSONRPCVersion.error()}
	case m.ID != nil && id == nil:
		return nil, &decodeError{nil, errBadID.error()}
	case m.Method == nil:
		return nil, &decodeError{id, errNoMethod.error()}
	case *m.Method == "":
		return nil, &decodeError{id, errEmptyMethod.error()}
	case badParams && id == nil:
		m.Params = nil
	case badParams:
		return nil, &decodeError{id, errParamType.error(typeErrorValues(typ))}
	}
	return m, nil
}

// bufPool recycles the buffers responses are encoded into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeError returns the response line carrying e for id (null when nil).
func encodeError(id json.RawMessage, e *Error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	line, err := encodeResponse(id, errorMember, e)
	if err != nil {
		// Only Data can fail to marshal; send the error without it.
		line, _ = encodeResponse(id, errorMember, &Error{Code: e.Code, Message: e.Message})
	}
	return line
}

// The text of a response line around its id, as encodeResponse writes it.
const (
	responsePrefix = `{"jsonrpc":"2.0","id":`
	resultMember   = `,"result":`
	errorMember    = `,"error":`
)

// encodeResponse returns the response line for id whose member (resultMember
// or errorMember) holds v, without escaping HTML characters.
func encodeResponse(id json.RawMessage, member string, v any) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	buf.WriteString(responsePrefix)
	buf.Write(id)
	buf.WriteString(member)
	if b, ok := appendResult(buf.AvailableBuffer(), v); ok {
		buf.Write(b)
	} else if err := encodeValue(buf, v); err != nil {
		return nil, err
	}
	buf.WriteString("}\n")
	return bytes.Clone(buf.Bytes()), nil
}

// encodeValue writes the JSON of v to buf by reflection, without escaping
// HTML characters and without a newline.
func encodeValue(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// The results sent most often are encoded here without reflection, byte
// for byte as encoding/json encodes them with HTML escaping off
// (TestAppendJSONMatchesEncodingJSON, and TestAppendResultWritesEveryField
// for a field added to a result type later; BenchmarkAppendResult times
// it). Anything else, a structured tool result included, is left to
// encoding/json. See "Speed" in the package documentation.

// appendResult appends the JSON of result to b and reports true, or
// reports false when result is not a type encoded here.
func appendResult(b []byte, result any) ([]byte, bool) {
	switch r := result.(type) {
	case *callToolWire:
		if r.CallToolResult == nil || r.StructuredContent != nil {
			return b, false
		}
		b = append(b, `{"content":`...)
		if r.Content == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, c := range r.Content {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"type":`...)
				b = jsonwire.AppendString(b, c.Type)
				b = append(b, `,"text":`...)
				b = jsonwire.AppendString(b, c.Text)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if r.IsError {
			b = append(b, `,"isError":true`...)
		}
		return appendResultMeta(b, &r.resultMeta), true
	case *readResourceResult:
		b = append(b, `{"contents":`...)
		if r.Contents == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, c := range r.Contents {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"uri":`...)
				b = jsonwire.AppendString(b, c.URI)
				if c.MIMEType != "" {
					b = append(b, `,"mimeType":`...)
					b = jsonwire.AppendString(b, c.MIMEType)
				}
				b = append(b, `,"text":`...)
				b = jsonwire.AppendString(b, c.Text)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = appendResultMeta(b, &r.resultMeta)
		b = b[:len(b)-1] // reopen the object for the cache fields
		if r.TTLMs != nil {
			b = append(b, `,"ttlMs":`...)
			b = strconv.AppendInt(b, *r.TTLMs, 10)
		}
		if r.CacheScope != "" {
			b = append(b, `,"cacheScope":`...)
			b = jsonwire.AppendString(b, r.CacheScope)
		}
		return append(b, '}'), true
	case *Error:
		return appendError(b, r)
	}
	return b, false
}

// appendError appends the JSON of e, when its data is none, a string or
// JSON text (as the rows of errorTable make it); encoding/json compacts
// JSON text, and so does appendError.
func appendError(b []byte, e *Error) ([]byte, bool) {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = jsonwire.AppendString(b, e.Message)
	switch d := e.Data.(type) {
	case nil:
	case string:
		b = append(b, `,"data":`...)
		b = jsonwire.AppendString(b, d)
	case json.RawMessage:
		buf := bytes.NewBuffer(append(b, `,"data":`...))
		if len(d) == 0 || json.Compact(buf, d) != nil {
			return b, false
		}
		b = buf.Bytes()
	default:
		return b, false
	}
	return append(b, '}'), true
}

// appendResultMeta appends a modern result's decorations, if any, and the
// brace that closes the result.
func appendResultMeta(b []byte, m *resultMeta) []byte {
	if m.ResultType != "" {
		b = append(b, `,"resultType":`...)
		b = jsonwire.AppendString(b, m.ResultType)
	}
	if m.Meta != nil {
		b = append(b, `,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":`...)
		b = jsonwire.AppendString(b, m.Meta.ServerInfo.Name)
		b = append(b, `,"version":`...)
		b = jsonwire.AppendString(b, m.Meta.ServerInfo.Version)
		b = append(b, "}}"...)
	}
	return append(b, '}')
}
