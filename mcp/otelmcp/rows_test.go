package otelmcp

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// tableRow is a row of the server's error table, as mcp/errortable.json
// gives it.
type tableRow struct {
	Name  string `json:"name"`
	Reply string `json:"reply"` // "error", "toolResult" or "handlerError"
	Code  int    `json:"code"`
}

// errorTable reads the rows of the server's error table.
func errorTable(t *testing.T) []tableRow {
	t.Helper()
	b, err := os.ReadFile("../errortable.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct{ Rows []tableRow }
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatalf("errortable.json: %v", err)
	}
	if len(data.Rows) == 0 {
		t.Fatal("errortable.json holds no rows")
	}
	return data.Rows
}

// Reasons a row has no span: the server answers it before it has read a
// request, so there is no method to name a span after (the conventions
// require mcp.method.name), and Options.Observe is not called.
const (
	notARequest = "not a request the server reads: the message is not valid JSON-RPC, so it has no method to name a span"
	framing     = "the stream's framing, refused before any message in it is read as a request: no method"
	beforeBody  = "an HTTP request refused before its body is read (its method, origin, host, headers or size): no method yet"
	logLine     = "a log line, not an answer: the request's span is that of what it ended as, a cancellation (TestCancellationHasAnErrorType) or the reply written"
)

// wantErrorType maps each row of the error table, by name, to the
// error.type its span must carry, or to the reason it has no span. A row
// added to the table without an entry here fails TestEveryRowHasItsErrorType.
var wantErrorType = map[string]struct{ errorType, noSpan string }{
	"handler-error":         {errorType: "-32001"}, // the code the test's handler chose
	"tool-error":            {errorType: "tool_error"},
	"tool-panic":            {errorType: "tool_error"},
	"tool-internal":         {errorType: "tool_error"},
	"output-invalid":        {errorType: "tool_error"},
	"error-content-invalid": {errorType: "tool_error"},
	"invalid-arguments":     {errorType: "tool_error"},
	"argument-go-type":      {errorType: "tool_error"},
	"resource-not-found":    {errorType: "-32602"},
	"resource-error":        {errorType: "-32603"},
	"resource-failed":       {errorType: "-32603"},
	"no-version":            {errorType: "-32602"},
	"unsupported-version":   {errorType: "-32022"},
	"no-capabilities":       {errorType: "-32602"},
	"already-initialized":   {errorType: "-32600"},
	"method-not-found":      {errorType: "-32601"},
	"no-tool-name":          {errorType: "-32602"},
	"unknown-tool":          {errorType: "-32602"},
	"arguments-not-object":  {errorType: "-32602"},
	"no-uri":                {errorType: "-32602"},
	"unknown-resource":      {errorType: "-32602"},
	"result-unencodable":    {errorType: "-32603"},
	"request-cancelled":     {noSpan: logLine},
	"client-closed":         {noSpan: logLine},
	"parse-error":           {noSpan: notARequest},
	"not-an-object":         {noSpan: notARequest},
	"member-type":           {noSpan: notARequest},
	"jsonrpc-version":       {noSpan: notARequest},
	"bad-id":                {noSpan: notARequest},
	"no-method":             {noSpan: notARequest},
	"empty-method":          {noSpan: notARequest},
	"param-type":            {noSpan: notARequest},
	"line-too-long":         {noSpan: framing},
	"batch-unsupported":     {noSpan: framing},
	"empty-batch":           {noSpan: framing},
	"http-method":           {noSpan: beforeBody},
	"origin":                {noSpan: beforeBody},
	"host":                  {noSpan: beforeBody},
	"accept":                {noSpan: beforeBody},
	"content-type":          {noSpan: beforeBody},
	"body-too-large":        {noSpan: beforeBody},
	"body-unreadable":       {noSpan: beforeBody},
	"http-batch":            {noSpan: beforeBody},
	"no-session":            {errorType: "-32600"},
	"unknown-session":       {errorType: "-32600"},
	"too-many-sessions":     {errorType: "-32603"},
	"header-missing":        {errorType: "-32020"},
	"header-base64":         {errorType: "-32020"},
	"header-mismatch":       {errorType: "-32020"},
}

// TestEveryRowHasItsErrorType checks wantErrorType against the error
// table: every row has an entry, an error.type or a reason it has no
// span, and the error.type is the one the conventions give the row's
// reply: its JSON-RPC code as a string, or "tool_error".
func TestEveryRowHasItsErrorType(t *testing.T) {
	rows := errorTable(t)
	names := map[string]bool{}
	for _, row := range rows {
		names[row.Name] = true
		want, ok := wantErrorType[row.Name]
		switch {
		case !ok:
			t.Errorf("row %s of the error table has no entry in wantErrorType: give it the error.type its span carries, and a request that gets it in TestEveryRowBecomesASpan, or the reason it has no span", row.Name)
		case (want.errorType == "") == (want.noSpan == ""):
			t.Errorf("row %s: give either an error.type or the reason it has no span, not %+v", row.Name, want)
		case want.errorType == "":
		case row.Reply == "error" && want.errorType != strconv.Itoa(row.Code):
			t.Errorf("row %s answers with code %d, so its error.type is %q, not %q", row.Name, row.Code, strconv.Itoa(row.Code), want.errorType)
		case row.Reply == "toolResult" && want.errorType != ErrorTypeToolError:
			t.Errorf("row %s answers with a tool error, so its error.type is %q, not %q", row.Name, ErrorTypeToolError, want.errorType)
		}
	}
	for name := range wantErrorType {
		if !names[name] {
			t.Errorf("wantErrorType has %s, which is no row of the error table", name)
		}
	}
}

// rowRequest is a request answered by a row of the error table, and the
// name of the span it gets.
type rowRequest struct {
	row, line, span string
}

// TestEveryRowBecomesASpan sends, through a real server, a request
// answered by each row of the error table that has a method, over stdio
// and over HTTP, and checks its span and its duration: the name, the
// kind, error.type and rpc.response.status_code, the status and its
// description, which is the message the client received. It sends some
// of the rows that have no method too, and checks that they get no span.
func TestEveryRowBecomesASpan(t *testing.T) {
	tel := newTelemetry(t)
	s := newServer(tel.recorder(t, Options{}).Observe, nil)
	seen := map[string]bool{}
	check := func(rq rowRequest, transport string, answer string) {
		t.Helper()
		want := wantErrorType[rq.row]
		sp := tel.oneSpan(t, rq.row)
		a := attrs(sp.Attributes)
		r, err := mcptest.ParseReply(answer)
		if err != nil {
			t.Fatalf("%s: %v", rq.row, err)
		}
		var message, code string
		if r.Error != nil {
			message, code = r.Error.Message, strconv.Itoa(r.Error.Code)
		} else if tr := r.ToolResult(t); tr.IsError && len(tr.Content) > 0 {
			message = tr.Content[0].Text
		}
		if sp.Name != rq.span || sp.SpanKind != trace.SpanKindServer {
			t.Errorf("%s: span %q of kind %v, want %q of kind server", rq.row, sp.Name, sp.SpanKind, rq.span)
		}
		if a[ErrorTypeKey] != want.errorType || a[RPCResponseStatusCodeKey] != code || (code != "" && code != want.errorType) {
			t.Errorf("%s: error.type %q, rpc.response.status_code %q; want %q, %q (the client received %s)",
				rq.row, a[ErrorTypeKey], a[RPCResponseStatusCodeKey], want.errorType, code, answer)
		}
		if sp.Status.Code != codes.Error || sp.Status.Description != message || message == "" {
			t.Errorf("%s: status %v %q, want Error %q, the message the client received in %s", rq.row, sp.Status.Code, sp.Status.Description, message, answer)
		}
		if a[MethodNameKey] == "" || !strings.HasPrefix(rq.span, a[MethodNameKey]) || a[NetworkTransportKey] != transport {
			t.Errorf("%s: mcp.method.name %q, network.transport %q; want the span's method, and %q", rq.row, a[MethodNameKey], a[NetworkTransportKey], transport)
		}
		seen[rq.row] = true
	}

	// Over stdio. The legacy requests come first, on a connection not yet
	// initialized, and initialize twice last.
	c := serveStdio(t, s)
	for _, rq := range []rowRequest{
		{"no-version", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "tools/list"},
		{"handler-error", mcptest.ToolCall("1", "refuse", "{}"), "tools/call refuse"},
		{"tool-error", mcptest.ToolCall("1", "echo", `{"text":""}`), "tools/call echo"},
		{"tool-panic", mcptest.ToolCall("1", "first", "{}"), "tools/call first"},
		{"tool-internal", mcptest.ToolCall("1", "internal", "{}"), "tools/call internal"},
		{"output-invalid", mcptest.ToolCall("1", "price", `{"title":"Dune"}`), "tools/call price"},
		{"error-content-invalid", mcptest.ToolCall("1", "price", `{"title":"Nothing"}`), "tools/call price"},
		{"invalid-arguments", mcptest.ToolCall("1", "echo", `{"text":1}`), "tools/call echo"},
		{"argument-go-type", mcptest.ToolCall("1", "count", `{"n":1e30}`), "tools/call count"},
		{"resource-not-found", mcptest.ReadCall("1", "shelf://missing"), "resources/read"},
		{"resource-error", mcptest.ReadCall("1", "shelf://dusted"), "resources/read"},
		{"resource-failed", mcptest.ReadCall("1", "shelf://locked"), "resources/read"},
		{"unsupported-version", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}`, "tools/list"},
		{"no-capabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "tools/list"},
		{"method-not-found", mcptest.Request("1", "prompts/list", ""), "prompts/list"},
		{"no-tool-name", mcptest.Request("1", "tools/call", ""), "tools/call"},
		{"unknown-tool", mcptest.ToolCall("1", "nothing", "{}"), "tools/call nothing"},
		{"arguments-not-object", mcptest.ToolCall("1", "echo", "[1]"), "tools/call echo"},
		{"no-uri", mcptest.Request("1", "resources/read", ""), "resources/read"},
		{"unknown-resource", mcptest.ReadCall("1", "other://x"), "resources/read"},
		{"result-unencodable", mcptest.ToolCall("1", "unencodable", "{}"), "tools/call unencodable"},
	} {
		check(rq, "pipe", c.call(rq.line))
	}
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	mcptest.DecodeReply(t, c.call(initialize))
	if sp := tel.oneSpan(t, "initialize"); sp.Name != "initialize" || sp.Status.Code != codes.Unset || attrs(sp.Attributes)[ErrorTypeKey] != "" {
		t.Errorf("initialize: span %q, status %v, attributes %v; want a span without error", sp.Name, sp.Status, sp.Attributes)
	}
	check(rowRequest{"already-initialized", initialize, "initialize"}, "pipe", c.call(initialize))

	// Rows with no method get no span.
	for row, line := range map[string]string{
		"parse-error": `{"jsonrpc":`,
		"bad-id":      `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`,
		"param-type":  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`,
	} {
		r, err := mcptest.ParseReply(c.call(line))
		if err != nil {
			t.Fatalf("%s: %v", row, err)
		}
		if spans := tel.takeSpans(); r.Error == nil || len(spans) != 0 {
			t.Errorf("%s: answered %+v with %d spans %v; want an error and no span", row, r, len(spans), spanNames(spans))
		}
	}

	// Over HTTP, with room for one legacy session.
	ts := httptest.NewServer(s.HTTPHandler(&mcp.HTTPOptions{MaxSessions: 1, MaxBodyBytes: 4096}))
	defer ts.Close()
	ctx := context.Background()
	const (
		httpInit   = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		legacyCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	)
	modernCall := mcptest.ToolCall("2", "echo", `{"text":"hi"}`)
	if r := post(t, ctx, ts.URL, httpInit, nil); r.Status != 200 || r.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", r.Status, r.Body)
	}
	tel.oneSpan(t, "HTTP initialize")
	for _, tt := range []struct {
		rowRequest
		hdr map[string]string
	}{
		{rowRequest{"no-session", legacyCall, "tools/call echo"}, nil},
		{rowRequest{"unknown-session", legacyCall, "tools/call echo"}, map[string]string{"Mcp-Session-Id": "gone"}},
		{rowRequest{"too-many-sessions", httpInit, "initialize"}, nil},
		{rowRequest{"header-missing", modernCall, "tools/call echo"}, map[string]string{"Mcp-Protocol-Version": mcp.ModernVersion}},
		{rowRequest{"header-base64", modernCall, "tools/call echo"},
			map[string]string{"Mcp-Protocol-Version": mcp.ModernVersion, "Mcp-Method": "tools/call", "Mcp-Name": "=?base64?!!?="}},
		{rowRequest{"header-mismatch", modernCall, "tools/call echo"}, mcptest.Headers("tools/call", "wait")},
	} {
		check(tt.rowRequest, "tcp", post(t, ctx, ts.URL, tt.line, tt.hdr).Body)
	}
	for row, req := range map[string]struct {
		body string
		hdr  map[string]string
	}{
		"origin":         {modernCall, map[string]string{"Origin": "https://elsewhere.example"}},
		"body-too-large": {mcptest.ToolCall("2", "echo", `{"text":"`+strings.Repeat("a", 5000)+`"}`), mcptest.Headers("tools/call", "echo")},
	} {
		r := post(t, ctx, ts.URL, req.body, req.hdr)
		if spans := tel.takeSpans(); r.Status < 400 || len(spans) != 0 {
			t.Errorf("%s: answered %d %s with %d spans %v; want a refusal and no span", row, r.Status, r.Body, len(spans), spanNames(spans))
		}
	}

	for _, row := range errorTable(t) {
		if want := wantErrorType[row.Name]; want.errorType != "" && !seen[row.Name] {
			t.Errorf("row %s: no request here gets it, so its span goes unchecked: add one to TestEveryRowBecomesASpan", row.Name)
		}
	}

	// Each row's error.type is on a point of the duration histogram, with
	// the method, in seconds.
	points, unit := tel.durations(t)
	if unit != "s" {
		t.Errorf("%s has unit %q, want s", MetricServerOperationDuration, unit)
	}
	types := map[string]bool{}
	for _, p := range points {
		a := attrs(p.Attributes.ToSlice())
		if a[MethodNameKey] == "" || p.Count == 0 {
			t.Errorf("a point without a method or a count: %v", a)
		}
		types[a[ErrorTypeKey]] = true
		if got := p.Bounds; len(got) != len(durationBuckets) || got[0] != 0.01 || got[len(got)-1] != 300 {
			t.Errorf("buckets %v, want the conventions' %v", got, durationBuckets)
		}
	}
	for row := range seen {
		if !types[wantErrorType[row].errorType] {
			t.Errorf("%s: no point of %s has error.type %q", row, MetricServerOperationDuration, wantErrorType[row].errorType)
		}
	}
	if !types[""] {
		t.Errorf("no point of %s is a success (no error.type)", MetricServerOperationDuration)
	}
}
