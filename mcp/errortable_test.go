package mcp

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestErrorTableRows checks each row: its type takes a value for each
// placeholder (of a tool result's text, each of a JSON-RPC error's message
// and data, a name once), its message and code are set, its statuses are
// HTTP statuses; and the zero kind is a handler's own error.
func TestErrorTableRows(t *testing.T) {
	if errHandlerError.errKind != 0 {
		t.Errorf("errHandlerError is kind %d, want 0, the kind of an *Error a handler made", errHandlerError.errKind)
	}
	for k, tr := range errorTable {
		row := &tr.errorRow
		if row.message == "" || row.code == 0 {
			t.Errorf("kind %d has no row", k)
		}
		var want []string
		switch row.code {
		case noReply: // a log line: nothing fills it
		case toolResult:
			want = placeholderNames(row.message)
		default:
			for _, n := range placeholderNames(row.message + row.data) {
				if !slices.Contains(want, n) {
					want = append(want, n)
				}
			}
		}
		if tr.values != len(want) {
			t.Errorf("row %s: its type takes %d values; it has %d placeholders %q", row.name, tr.values, len(want), want)
		}
		// A row with a standard code and a text in data (the detail) has
		// the standard message.
		if std := standardMessage(row.code); std != "" && row.data != "" && row.data[0] != '{' && row.message != std {
			t.Errorf("kind %d: message %q with code %d and data %q, want %q", k, row.message, row.code, row.data, std)
		}
		for _, status := range []int{row.legacy, row.modern} {
			if status != noHTTP && status != byCode && http.StatusText(status) == "" {
				t.Errorf("kind %d: HTTP status %d", k, status)
			}
		}
	}
}

// TestArgumentGoTypeRow checks that the row of arguments their Go type
// cannot hold, sent as a tool error of invalid arguments, is that row with
// its <problems> spelled out.
func TestArgumentGoTypeRow(t *testing.T) {
	invalid, goType := errInvalidArguments.row(), errArgumentGoType.row()
	prefix, _, _ := strings.Cut(invalid.message, "<problems>")
	if !strings.HasPrefix(goType.message, prefix) || goType.code != invalid.code || goType.data != invalid.data ||
		goType.legacy != invalid.legacy || goType.modern != invalid.modern || goType.level != invalid.level {
		t.Errorf("row errArgumentGoType %+v is not row errInvalidArguments %+v with its problems spelled out", *goType, *invalid)
	}
}

func TestErrorFill(t *testing.T) {
	// One value fills every placeholder of its name, JSON-encoded in an
	// object, never HTML-escaped.
	e := errUnknownResource.error(`books://a&b<c>`)
	b, err := json.Marshal(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	if e.Message != `Unknown resource: books://a&b<c>` || string(e.Data.(json.RawMessage)) != `{"uri":"books://a&b<c>"}` {
		t.Errorf("unknown resource: message %q, data %s", e.Message, b)
	}
	e = errUnsupportedVersion.error([]string{"x", "y"}, "z")
	if string(e.Data.(json.RawMessage)) != `{"supported":["x","y"],"requested":"z"}` {
		t.Errorf("unsupported version: data %s", e.Data)
	}
	e = errHeaderMismatch.error("Mcp-Name", "a", "b")
	if e.Message != `Header mismatch: Mcp-Name header value 'a' does not match body value 'b'` || e.Data != nil {
		t.Errorf("header mismatch: %q, data %v", e.Message, e.Data)
	}
	if got := errToolError.text("t", "<x>"); got != "Error executing tool t: <x>" {
		t.Errorf("tool error: %q", got)
	}
	if got := errToolPanic.text("t"); got != "Error executing tool t" {
		t.Errorf("tool panic: %q", got)
	}
}

func TestErrorHTTPStatus(t *testing.T) {
	for _, tt := range []struct {
		e      *Error
		modern bool
		want   int
	}{
		{nil, true, 200},
		{errUnknownTool.error("x"), false, 200},
		{errUnknownTool.error("x"), true, 400},
		{errMethodNotFound.error("x"), true, 404},
		{errOrigin.error("x"), false, 403},
		{&Error{Code: CodeInvalidParams, Message: "m"}, true, 400},
		{&Error{Code: -32001, Message: "m"}, true, 200},
		{&Error{Code: CodeInvalidParams, Message: "m"}, false, 200},
		{errNoVersion.error("x"), false, 500},
	} {
		if got := tt.e.httpStatus(tt.modern); got != tt.want {
			t.Errorf("%v (modern %v): status %d, want %d", tt.e, tt.modern, got, tt.want)
		}
	}
}

// standardMessage returns the message JSON-RPC 2.0 gives a standard code
// ("Parse error", "Invalid Request", "Method not found", "Invalid params",
// "Internal error"), or "" for any other code: the message of the rows the
// server raises itself, which give the detail in data.
func standardMessage(code int) string {
	switch code {
	case CodeParseError:
		return "Parse error"
	case CodeInvalidRequest:
		return "Invalid Request"
	case CodeMethodNotFound:
		return "Method not found"
	case CodeInvalidParams:
		return "Invalid params"
	case CodeInternalError:
		return "Internal error"
	}
	return ""
}
