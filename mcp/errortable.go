package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// errorRow is one error the server can send: a row of [errorTable].
type errorRow struct {
	name    string     // the row's anchor in the guide: unknown-tool for errUnknownTool
	code    int        // the JSON-RPC code, or toolResult, or fromHandler, or noReply
	message string     // the message, or a tool result's text, or a noReply row's log line
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

// The rows of errorTable, in its order: every error the server sends, one
// row each. Every error reply in the core is made from a row, by its
// error or text method, and nothing else writes an error's message or
// data, picks a code or an HTTP status. (The <problems> of invalid
// arguments are the schema checker's, worded field by field in
// mcp/internal/schema, as <err> is the handler's.) Read a row as:
//
//   - its variable (errUnknownTool), whose type says what fills it: a row0
//     takes no value, a row1 one, a textRow2 two, and so on;
//   - its name, the variable's without "err" in kebab case (unknown-tool),
//     the row's anchor in the guide's page "Every error the server sends";
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
// The compiler checks that each use passes the values the row's type
// takes; TestErrorTableRows checks that the type takes one value for each
// distinct placeholder of the message and data (each placeholder of a
// tool result's text), and TestErrorTableData that errortable.json, the
// table as data that "go generate ./..." writes, is up to date. The guide
// renders that data (the ":::errors mcp" directive of internal/site) and
// fails to build when a row has no explanation there.
//
// Each variable adds its row to errorTable as it is initialized, which Go
// does in the order of declaration: the rows depend on nothing but
// errorTable, so nothing reorders them.
var (
	// What a handler returns.
	errHandlerError        = newHandlerRow(errorRow{"handler-error", fromHandler, "<message>", "<data>", 200, byCode, slog.LevelWarn})
	errToolError           = newTextRow2(errorRow{"tool-error", toolResult, "Error executing tool <name>: <err>", "", 200, 200, slog.LevelInfo})
	errToolPanic           = newTextRow1(errorRow{"tool-panic", toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError})
	errToolInternal        = newTextRow1(errorRow{"tool-internal", toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError})
	errOutputInvalid       = newTextRow1(errorRow{"output-invalid", toolResult, "Error executing tool <name>", "", 200, 200, slog.LevelError})
	errErrorContentInvalid = newTextRow2(errorRow{"error-content-invalid", toolResult, "Error executing tool <name>: <err>", "", 200, 200, slog.LevelError})
	errInvalidArguments    = newTextRow2(errorRow{"invalid-arguments", toolResult, "Error executing tool <name>: <problems>", "", 200, 200, slog.LevelInfo})
	errArgumentGoType      = newTextRow3(errorRow{"argument-go-type", toolResult, "Error executing tool <name>: /<field>: cannot hold the <value> given", "", 200, 200, slog.LevelInfo})
	errResourceNotFound    = newRow2(errorRow{"resource-not-found", CodeInvalidParams, "<message>", `{"uri":<uri>}`, 200, 400, slog.LevelWarn})
	errResourceError       = newRow2(errorRow{"resource-error", CodeInternalError, "<message>", `{"uri":<uri>}`, 200, 200, slog.LevelInfo})
	errResourceFailed      = newRow1(errorRow{"resource-failed", CodeInternalError, "Internal error", `{"uri":<uri>}`, 200, 200, slog.LevelError})

	// What ends a request without an error.
	errRequestCancelled = newLogRow(errorRow{"request-cancelled", noReply, "request cancelled", "", noHTTP, noHTTP, slog.LevelInfo})
	errClientClosed     = newLogRow(errorRow{"client-closed", noReply, "the client closed its side before the reply", "", noHTTP, noHTTP, slog.LevelInfo})

	// What a request asks for.
	errNoVersion          = newRow1(errorRow{"no-version", CodeInvalidParams, "Invalid params", `no protocol version: send "initialize" first, or put "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities" in params._meta; supported versions: <versions>`, noHTTP, noHTTP, slog.LevelWarn})
	errUnsupportedVersion = newVersionsRow(errorRow{"unsupported-version", CodeUnsupportedProtocolVersion, "Unsupported protocol version", `{"supported":<supported>,"requested":<version>}`, 400, 400, slog.LevelWarn})
	errNoCapabilities     = newRow0(errorRow{"no-capabilities", CodeInvalidParams, "Invalid params", `params._meta is missing "io.modelcontextprotocol/clientCapabilities"`, noHTTP, 400, slog.LevelWarn})
	errAlreadyInitialized = newRow1(errorRow{"already-initialized", CodeInvalidRequest, "Invalid Request", "the connection is already initialized at <version>", noHTTP, noHTTP, slog.LevelWarn})
	errMethodNotFound     = newRow1(errorRow{"method-not-found", CodeMethodNotFound, "Method not found", "<method>", 200, 404, slog.LevelWarn})
	errNoToolName         = newRow0(errorRow{"no-tool-name", CodeInvalidParams, "Invalid params", `"params.name" is missing`, 200, 400, slog.LevelWarn})
	errUnknownTool        = newRow1(errorRow{"unknown-tool", CodeInvalidParams, "Unknown tool: <name>", "", 200, 400, slog.LevelWarn})
	errArgumentsNotObject = newRow0(errorRow{"arguments-not-object", CodeInvalidParams, "Invalid params", `"params.arguments" must be a JSON object`, 200, 400, slog.LevelWarn})
	errNoURI              = newRow0(errorRow{"no-uri", CodeInvalidParams, "Invalid params", `"params.uri" is missing`, 200, 400, slog.LevelWarn})
	errUnknownResource    = newRow1(errorRow{"unknown-resource", CodeInvalidParams, "Unknown resource: <uri>", `{"uri":<uri>}`, 200, 400, slog.LevelWarn})
	errResultUnencodable  = newRow0(errorRow{"result-unencodable", CodeInternalError, "Internal error", "the result could not be encoded", 200, 200, slog.LevelError})

	// What a message looks like.
	errParseError     = newRow1(errorRow{"parse-error", CodeParseError, "Parse error", "<err>", 400, 400, slog.LevelWarn})
	errNotAnObject    = newRow0(errorRow{"not-an-object", CodeInvalidRequest, "Invalid Request", "a message must be a JSON object", 400, 400, slog.LevelWarn})
	errMemberType     = newRow3(errorRow{"member-type", CodeInvalidRequest, "Invalid Request", `"<member>" must be <type>, not <given>`, 400, 400, slog.LevelWarn})
	errJSONRPCVersion = newRow0(errorRow{"jsonrpc-version", CodeInvalidRequest, "Invalid Request", `"jsonrpc" must be "2.0"`, 400, 400, slog.LevelWarn})
	errBadID          = newRow0(errorRow{"bad-id", CodeInvalidRequest, "Invalid Request", `"id" must be a string or a number`, 400, 400, slog.LevelWarn})
	errNoMethod       = newRow0(errorRow{"no-method", CodeInvalidRequest, "Invalid Request", `"method" is missing`, 400, 400, slog.LevelWarn})
	errEmptyMethod    = newRow0(errorRow{"empty-method", CodeInvalidRequest, "Invalid Request", `"method" is empty`, 400, 400, slog.LevelWarn})
	errParamType      = newRow3(errorRow{"param-type", CodeInvalidParams, "Invalid params", `"<member>" must be <type>, not <given>`, 400, 400, slog.LevelWarn})

	// What a stream carries.
	errLineTooLong      = newRow1(errorRow{"line-too-long", CodeInvalidRequest, "Invalid Request", "message longer than the <limit>-byte limit", noHTTP, noHTTP, slog.LevelWarn})
	errBatchUnsupported = newRow0(errorRow{"batch-unsupported", CodeInvalidRequest, "Invalid Request", "batches are not supported at this protocol version", noHTTP, noHTTP, slog.LevelWarn})
	errEmptyBatch       = newRow0(errorRow{"empty-batch", CodeInvalidRequest, "Invalid Request", "empty batch", noHTTP, noHTTP, slog.LevelWarn})

	// What an HTTP request looks like.
	errHTTPMethod      = newRow1(errorRow{"http-method", CodeInvalidRequest, "Invalid Request", "<method> is not supported: send each JSON-RPC message in a POST", 405, 405, slog.LevelWarn})
	errOrigin          = newRow1(errorRow{"origin", CodeInvalidRequest, "Invalid Request", "origin <origin> is not allowed", 403, 403, slog.LevelWarn})
	errHost            = newRow1(errorRow{"host", CodeInvalidRequest, "Invalid Request", "host <host> is not allowed on a loopback server", 421, 421, slog.LevelWarn})
	errAccept          = newRow0(errorRow{"accept", CodeInvalidRequest, "Invalid Request", "the Accept header must list both application/json and text/event-stream", 406, 406, slog.LevelWarn})
	errContentType     = newRow0(errorRow{"content-type", CodeInvalidRequest, "Invalid Request", "the Content-Type header must be application/json", 415, 415, slog.LevelWarn})
	errBodyTooLarge    = newRow1(errorRow{"body-too-large", CodeInvalidRequest, "Invalid Request", "message longer than the <limit>-byte limit", 413, 413, slog.LevelWarn})
	errBodyUnreadable  = newRow0(errorRow{"body-unreadable", CodeInvalidRequest, "Invalid Request", "the request body could not be read", 400, 400, slog.LevelWarn})
	errHTTPBatch       = newRow0(errorRow{"http-batch", CodeInvalidRequest, "Invalid Request", "a POST body must be a single JSON-RPC message, not a batch", 400, 400, slog.LevelWarn})
	errNoSession       = newRow0(errorRow{"no-session", CodeInvalidRequest, "Invalid Request", `the Mcp-Session-Id header is missing: send "initialize" first, or put "io.modelcontextprotocol/protocolVersion" in params._meta to be served without a session`, 400, noHTTP, slog.LevelWarn})
	errUnknownSession  = newRow0(errorRow{"unknown-session", CodeInvalidRequest, "Invalid Request", `the session is unknown, ended or expired: send "initialize" to start a new one`, 404, noHTTP, slog.LevelWarn})
	errTooManySessions = newRow0(errorRow{"too-many-sessions", CodeInternalError, "Internal error", "too many open sessions; try again later", 503, noHTTP, slog.LevelWarn})
	errHeaderMissing   = newRow1(errorRow{"header-missing", CodeHeaderMismatch, "Header mismatch: the <header> header is missing", "", noHTTP, 400, slog.LevelWarn})
	errHeaderBase64    = newRow1(errorRow{"header-base64", CodeHeaderMismatch, "Header mismatch: the <header> header is not valid base64", "", noHTTP, 400, slog.LevelWarn})
	errHeaderMismatch  = newRow3(errorRow{"header-mismatch", CodeHeaderMismatch, "Header mismatch: <header> header value '<value>' does not match body value '<body>'", "", noHTTP, 400, slog.LevelWarn})
)

// errorTable holds the rows of the variables above, in their order, each
// with how many values fill it; a row's errKind is its index.
var errorTable []tableRow

// tableRow is a row of errorTable.
type tableRow struct {
	errorRow
	values int // the values its type takes
}

// errKind is a row of [errorTable], its index. The zero kind,
// errHandlerError, is an *[Error] a handler made.
type errKind uint8

// addRow appends r, which values fill, to errorTable and returns its kind.
func addRow(r errorRow, values int) errKind {
	errorTable = append(errorTable, tableRow{r, values})
	return errKind(len(errorTable) - 1)
}

// row returns k's row.
func (k errKind) row() *errorRow { return &errorTable[k].errorRow }

// The types of the rows, by what fills them. A JSON-RPC error's row has
// error, and withCause when the server logs a cause with it; a tool
// result's row has text.
type (
	handlerRow  struct{ errKind } // a handler's own *Error, which it fills
	logRow      struct{ errKind } // a log line, for what ends a request without an error
	row0        struct{ errKind } // an error with no placeholder
	row1        struct{ errKind } // an error with one placeholder
	row2        struct{ errKind } // an error with two
	row3        struct{ errKind } // an error with three
	versionsRow struct{ errKind } // an error filled with the versions supported and the one requested
	textRow1    struct{ errKind } // a tool result's text with one placeholder, the tool's name
	textRow2    struct{ errKind } // a tool result's text with two
	textRow3    struct{ errKind } // a tool result's text with three
)

// The constructors of the rows' types, which add the row to errorTable.
func newHandlerRow(r errorRow) handlerRow   { return handlerRow{addRow(r, 2)} }
func newLogRow(r errorRow) logRow           { return logRow{addRow(r, 0)} }
func newRow0(r errorRow) row0               { return row0{addRow(r, 0)} }
func newRow1(r errorRow) row1               { return row1{addRow(r, 1)} }
func newRow2(r errorRow) row2               { return row2{addRow(r, 2)} }
func newRow3(r errorRow) row3               { return row3{addRow(r, 3)} }
func newVersionsRow(r errorRow) versionsRow { return versionsRow{addRow(r, 2)} }
func newTextRow1(r errorRow) textRow1       { return textRow1{addRow(r, 1)} }
func newTextRow2(r errorRow) textRow2       { return textRow2{addRow(r, 2)} }
func newTextRow3(r errorRow) textRow3       { return textRow3{addRow(r, 3)} }

// error returns the protocol error of row r.
func (r row0) error() *Error { return fillError(r.errKind) }

// error returns the protocol error of row r, with a filling its placeholder.
func (r row1) error(a string) *Error { return fillError(r.errKind, a) }

// error returns the protocol error of row r, with a and b filling its
// placeholders in order.
func (r row2) error(a, b string) *Error { return fillError(r.errKind, a, b) }

// error returns the protocol error of row r, with a, b and c filling its
// placeholders in order.
func (r row3) error(a, b, c string) *Error { return fillError(r.errKind, a, b, c) }

// error returns the protocol error of row r for the versions supported
// and the one requested.
func (r versionsRow) error(supported []string, requested string) *Error {
	return fillError(r.errKind, supported, requested)
}

// withCause returns the protocol error of row r, made as by error, that
// the server logs with cause but never sends it.
func (r row0) withCause(cause error) *Error { return r.error().withCause(cause) }

// withCause returns the protocol error of row r, made as by error, that
// the server logs with cause but never sends it.
func (r row1) withCause(cause error, a string) *Error { return r.error(a).withCause(cause) }

// withCause sets the cause e is logged with, and returns e.
func (e *Error) withCause(cause error) *Error {
	e.cause = cause
	return e
}

// text returns the text of row r, a tool result, for the tool name.
func (r textRow1) text(name string) string { return fillText(r.row().message, name) }

// text returns the text of row r, a tool result, with name and a filling
// its placeholders.
func (r textRow2) text(name, a string) string { return fillText(r.row().message, name, a) }

// text returns the text of row r, a tool result, with name, a and b
// filling its placeholders.
func (r textRow3) text(name, a, b string) string {
	return fillText(r.row().message, name, a, b)
}

// fillError returns the protocol error of row k. Its values fill the
// placeholders of the message and then of data, one value for each name
// in the order the names first appear: a text for a placeholder in a text,
// any value for one in a JSON object. It is the rows' error methods' to
// call, which give it the values the row takes; a function rather than a
// method of errKind, so that no row offers it in place of its own.
func fillError(k errKind, values ...any) *Error {
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
