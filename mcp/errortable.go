package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"

	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
)

// errorRow is one error the server can send: a row of [errorTable].
type errorRow struct {
	code    int        // the JSON-RPC code, or toolResult, or fromHandler
	message string     // the message, or a tool result's text
	data    string     // what data holds: a text, a JSON value, or "" for none
	legacy  int        // the HTTP status in a legacy session, or noHTTP
	modern  int        // the HTTP status served statelessly, or byCode, or noHTTP
	level   slog.Level // the level of the line the server logs
}

// The values of errorTable's columns that are not a code or a status.
const (
	toolResult  = 1  // none: a tool result with isError set, not a JSON-RPC error
	fromHandler = 2  // the handler's
	noReply     = 3  // none: no error is sent, and message is the log line's
	noHTTP      = 0  // not sent over HTTP
	byCode      = -1 // 400 for the codes the server sends with 400, 404 for -32601, else 200
)

// errorTable is every error the server sends, one row each: every error
// reply in the core is made from a row, by [errKind.error] or
// [errKind.text], and nothing else writes an error's message or data,
// picks a code or an HTTP status. (The <problems> of invalid arguments are
// the schema checker's, worded field by field in mcp/internal/schema, as
// <err> is the handler's.) Read a row as:
//
//   - its kind (errUnknownTool), whose name is the row's anchor in the guide's
//     page "Every error the server sends" (unknown-tool);
//   - the JSON-RPC code, one of the exported Code constants, or toolResult
//     for a tool result with isError set, which the model reads, or
//     fromHandler for an error the handler chose, or noReply for what ends
//     a request without an error: the server logs it and sends no error;
//   - the message, or the tool result's text, or a noReply row's log
//     message: each <word> in it is a value filled in when the error is
//     made, in order;
//   - what data holds: "" for nothing; a text, filled in like the message
//     and sent as a JSON string; or, when it starts with "{", a JSON object
//     whose <words> are filled in with JSON values;
//   - the HTTP status of the response in a legacy session and served
//     statelessly (over stdio there is none); noHTTP where the error cannot
//     arise over HTTP, byCode where it follows the code;
//   - the level of the one line the server logs when it sends the error.
//
// The tests hold the table to its uses and its readers: TestErrorTableFills
// finds every call that fills a row and checks that it passes a value for
// each placeholder; TestErrorTableData checks that errortable.json, the
// table as data that "go generate ./..." writes, is up to date. The guide
// renders that data (the ":::errors mcp" directive of internal/site) and
// fails to build when a row has no explanation there.
var errorTable = [...]errorRow{
	// What a handler returns.
	errHandlerError:        {fromHandler, "<message>", "<data>", 200, byCode, slog.LevelWarn},
	errToolError:           {toolResult, "Error executing tool <name>: <err>", "", 200, 200, slog.LevelInfo},
	errToolPanic:           {toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError},
	errToolInternal:        {toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError},
	errOutputInvalid:       {toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError},
	errErrorContentInvalid: {toolResult, "Error executing tool <name>: <err>", "", 200, 200, slog.LevelError},
	errInvalidArguments:    {toolResult, "Error executing tool <name>: <problems>", "", 200, 200, slog.LevelInfo},
	errArgumentGoType:      {toolResult, "Error executing tool <name>: /<field>: cannot hold the <value> given", "", 200, 200, slog.LevelInfo},
	errResourceNotFound:    {CodeInvalidParams, "<message>", `{"uri":<uri>}`, 200, 400, slog.LevelWarn},
	errResourceError:       {CodeInternalError, "<message>", `{"uri":<uri>}`, 200, 200, slog.LevelInfo},
	errResourceFailed:      {CodeInternalError, "Internal error", `{"uri":<uri>}`, 200, 200, slog.LevelError},

	// What ends a request without an error.
	errRequestCancelled: {noReply, "request cancelled", "", noHTTP, noHTTP, slog.LevelInfo},
	errClientClosed:     {noReply, "the client closed its side before the reply", "", noHTTP, noHTTP, slog.LevelInfo},

	// What a request asks for.
	errNoVersion:          {CodeInvalidParams, "Invalid params", `no protocol version: send "initialize" first, or put "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities" in params._meta; supported versions: <versions>`, noHTTP, noHTTP, slog.LevelWarn},
	errUnsupportedVersion: {CodeUnsupportedProtocolVersion, "Unsupported protocol version", `{"supported":<supported>,"requested":<version>}`, 400, 400, slog.LevelWarn},
	errNoCapabilities:     {CodeInvalidParams, "Invalid params", `params._meta is missing "io.modelcontextprotocol/clientCapabilities"`, noHTTP, 400, slog.LevelWarn},
	errAlreadyInitialized: {CodeInvalidRequest, "Invalid Request", "the connection is already initialized at <version>", noHTTP, noHTTP, slog.LevelWarn},
	errMethodNotFound:     {CodeMethodNotFound, "Method not found", "<method>", 200, 404, slog.LevelWarn},
	errNoToolName:         {CodeInvalidParams, "Invalid params", `"params.name" is missing`, 200, 400, slog.LevelWarn},
	errUnknownTool:        {CodeInvalidParams, "Unknown tool: <name>", "", 200, 400, slog.LevelWarn},
	errArgumentsNotObject: {CodeInvalidParams, "Invalid params", `"params.arguments" must be a JSON object`, 200, 400, slog.LevelWarn},
	errNoURI:              {CodeInvalidParams, "Invalid params", `"params.uri" is missing`, 200, 400, slog.LevelWarn},
	errUnknownResource:    {CodeInvalidParams, "Unknown resource: <uri>", `{"uri":<uri>}`, 200, 400, slog.LevelWarn},
	errResultUnencodable:  {CodeInternalError, "Internal error", "the result could not be encoded", 200, 200, slog.LevelError},

	// What a message looks like.
	errParseError:     {CodeParseError, "Parse error", "<err>", 400, 400, slog.LevelWarn},
	errNotAnObject:    {CodeInvalidRequest, "Invalid Request", "a message must be a JSON object", 400, 400, slog.LevelWarn},
	errMemberType:     {CodeInvalidRequest, "Invalid Request", `"<member>" must be <type>, not <given>`, 400, 400, slog.LevelWarn},
	errJSONRPCVersion: {CodeInvalidRequest, "Invalid Request", `"jsonrpc" must be "2.0"`, 400, 400, slog.LevelWarn},
	errBadID:          {CodeInvalidRequest, "Invalid Request", `"id" must be a string or a number`, 400, 400, slog.LevelWarn},
	errNoMethod:       {CodeInvalidRequest, "Invalid Request", `"method" is missing`, 400, 400, slog.LevelWarn},
	errEmptyMethod:    {CodeInvalidRequest, "Invalid Request", `"method" is empty`, 400, 400, slog.LevelWarn},
	errParamType:      {CodeInvalidParams, "Invalid params", `"<member>" must be <type>, not <given>`, 400, 400, slog.LevelWarn},

	// What a stream carries.
	errLineTooLong:      {CodeInvalidRequest, "Invalid Request", "message longer than the <limit>-byte limit", noHTTP, noHTTP, slog.LevelWarn},
	errBatchUnsupported: {CodeInvalidRequest, "Invalid Request", "batches are not supported at this protocol version", noHTTP, noHTTP, slog.LevelWarn},
	errEmptyBatch:       {CodeInvalidRequest, "Invalid Request", "empty batch", noHTTP, noHTTP, slog.LevelWarn},

	// What an HTTP request looks like.
	errHTTPMethod:      {CodeInvalidRequest, "Invalid Request", "<method> is not supported: send each JSON-RPC message in a POST", 405, 405, slog.LevelWarn},
	errOrigin:          {CodeInvalidRequest, "Invalid Request", "origin <origin> is not allowed", 403, 403, slog.LevelWarn},
	errHost:            {CodeInvalidRequest, "Invalid Request", "host <host> is not allowed on a loopback server", 421, 421, slog.LevelWarn},
	errAccept:          {CodeInvalidRequest, "Invalid Request", "the Accept header must list both application/json and text/event-stream", 406, 406, slog.LevelWarn},
	errContentType:     {CodeInvalidRequest, "Invalid Request", "the Content-Type header must be application/json", 415, 415, slog.LevelWarn},
	errBodyTooLarge:    {CodeInvalidRequest, "Invalid Request", "message longer than the <limit>-byte limit", 413, 413, slog.LevelWarn},
	errBodyUnreadable:  {CodeInvalidRequest, "Invalid Request", "the request body could not be read", 400, 400, slog.LevelWarn},
	errHTTPBatch:       {CodeInvalidRequest, "Invalid Request", "a POST body must be a single JSON-RPC message, not a batch", 400, 400, slog.LevelWarn},
	errNoSession:       {CodeInvalidRequest, "Invalid Request", `the Mcp-Session-Id header is missing: send "initialize" first, or put "io.modelcontextprotocol/protocolVersion" in params._meta to be served without a session`, 400, noHTTP, slog.LevelWarn},
	errUnknownSession:  {CodeInvalidRequest, "Invalid Request", `the session is unknown, ended or expired: send "initialize" to start a new one`, 404, noHTTP, slog.LevelWarn},
	errTooManySessions: {CodeInternalError, "Internal error", "too many open sessions; try again later", 503, noHTTP, slog.LevelWarn},
	errHeaderMissing:   {CodeHeaderMismatch, "Header mismatch: the <header> header is missing", "", noHTTP, 400, slog.LevelWarn},
	errHeaderBase64:    {CodeHeaderMismatch, "Header mismatch: the <header> header is not valid base64", "", noHTTP, 400, slog.LevelWarn},
	errHeaderMismatch:  {CodeHeaderMismatch, "Header mismatch: <header> header value '<value>' does not match body value '<body>'", "", noHTTP, 400, slog.LevelWarn},
}

// errKind is a row of [errorTable]. The zero kind, errHandlerError, is an
// *[Error] a handler made.
type errKind uint8

// The kinds, in the order of [errorTable].
const (
	errHandlerError errKind = iota
	errToolError
	errToolPanic
	errToolInternal
	errOutputInvalid
	errErrorContentInvalid
	errInvalidArguments
	errArgumentGoType
	errResourceNotFound
	errResourceError
	errResourceFailed

	errRequestCancelled
	errClientClosed

	errNoVersion
	errUnsupportedVersion
	errNoCapabilities
	errAlreadyInitialized
	errMethodNotFound
	errNoToolName
	errUnknownTool
	errArgumentsNotObject
	errNoURI
	errUnknownResource
	errResultUnencodable

	errParseError
	errNotAnObject
	errMemberType
	errJSONRPCVersion
	errBadID
	errNoMethod
	errEmptyMethod
	errParamType

	errLineTooLong
	errBatchUnsupported
	errEmptyBatch

	errHTTPMethod
	errOrigin
	errHost
	errAccept
	errContentType
	errBodyTooLarge
	errBodyUnreadable
	errHTTPBatch
	errNoSession
	errUnknownSession
	errTooManySessions
	errHeaderMissing
	errHeaderBase64
	errHeaderMismatch
)

// row returns k's row.
func (k errKind) row() *errorRow { return &errorTable[k] }

// error returns the protocol error of row k. Its values fill the
// placeholders of the message and then of data, one value for each name
// in the order the names first appear: a text for a placeholder in a text,
// any value for one in a JSON object.
func (k errKind) error(values ...any) *Error {
	row := k.row()
	var names []string
	value := func(name string) any {
		i := 0
		for i < len(names) && names[i] != name {
			i++
		}
		if i == len(names) {
			names = append(names, name)
		}
		if i < len(values) {
			return values[i]
		}
		return "<" + name + ">" // a row used with too few values shows the gap
	}
	e := &Error{Code: row.code, Message: fillTemplate(row.message, value, false), kind: k}
	switch {
	case row.data == "":
	case row.data[0] == '{':
		e.Data = json.RawMessage(fillTemplate(row.data, value, true))
	default:
		e.Data = fillTemplate(row.data, value, false)
	}
	return e
}

// withCause returns the protocol error of row k, made as by error, that
// the server logs with cause but never sends it.
func (k errKind) withCause(cause error, values ...any) *Error {
	e := k.error(values...)
	e.cause = cause
	return e
}

// text returns the text of row k, a tool result, with values filling its
// placeholders in order.
func (k errKind) text(values ...string) string {
	return fillText(k.row().message, values...)
}

// typeErrorValues returns the values of the error answering a member of a
// message with the wrong JSON type (errMemberType, or errParamType within
// params): the member, the type it must have and the type it has.
func typeErrorValues(e *json.UnmarshalTypeError) (member, want, given string) {
	member = e.Field
	if rest, ok := strings.CutPrefix(member, "params._meta."); ok {
		member = "params._meta[" + rest + "]"
	}
	want = "a string"
	if k := e.Type.Kind(); k == reflect.Struct || k == reflect.Pointer {
		want = "an object"
	}
	return member, want, article(e.Value)
}

// article puts "a" or "an" before a JSON type name.
func article(typ string) string {
	if strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}

// fillText returns tmpl with values filling its <name> placeholders in
// order, in one allocation of the text's size. Placeholders beyond the
// values stay as they are.
func fillText(tmpl string, values ...string) string {
	n, rest := len(tmpl), tmpl
	for _, v := range values {
		i, j := findPlaceholder(rest)
		if i < 0 {
			break
		}
		n += len(v) - (j - i)
		rest = rest[j:]
	}
	var b strings.Builder
	b.Grow(n) // one allocation, of the text's size
	for _, v := range values {
		i, j := findPlaceholder(tmpl)
		if i < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		b.WriteString(v)
		tmpl = tmpl[j:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// fillTemplate returns tmpl with each <name> replaced by value(name): as text, or
// in a JSON template as JSON, without escaping HTML characters, as the
// response is written.
func fillTemplate(tmpl string, value func(name string) any, asJSON bool) string {
	var b strings.Builder
	for {
		i, j := findPlaceholder(tmpl)
		if i < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		v := value(tmpl[i+1 : j-1])
		if s, ok := v.(string); ok && asJSON {
			var tmp [64]byte
			b.Write(jsonwire.AppendString(tmp[:0], s))
		} else if asJSON {
			var buf bytes.Buffer
			encodeValue(&buf, v)
			b.Write(buf.Bytes())
		} else if s, ok := v.(string); ok {
			b.WriteString(s)
		} else {
			fmt.Fprint(&b, v)
		}
		tmpl = tmpl[j:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// findPlaceholder returns where the first <name> in s starts and ends, or
// -1 and -1.
func findPlaceholder(s string) (start, end int) {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return -1, -1
	}
	j := strings.IndexByte(s[i:], '>')
	if j < 0 {
		return -1, -1
	}
	return i, i + j + 1
}
