package check

import (
	"strings"
	"testing"
)

// TestJudge holds the judging function to the verdicts each class of
// answer deserves, lesson by lesson, era by era.
func TestJudge(t *testing.T) {
	const modern, legacy, old = "2026-07-28", "2025-11-25", "2025-06-18"
	toolError := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool t: /q: required, but missing"}],"isError":true}}`
	result := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"fine"}]}}`
	errWith := func(code, data string) string {
		return `{"jsonrpc":"2.0","id":1,"error":{"code":` + code + `,"message":"m"` + data + `}}`
	}
	nullID := func(code string) string {
		return `{"jsonrpc":"2.0","id":null,"error":{"code":` + code + `,"message":"m"}}`
	}
	for _, tt := range []struct {
		name    string
		lesson  string
		row     string
		id      string
		version string
		http    bool
		status  int
		reply   string
		silent  bool
		want    Kind
		detail  string // a part of the detail, when it matters
	}{
		{"unknown tool, -32602", LessonUnknownTool, "unknown-tool", "1", modern, false, 0, errWith("-32602", ""), false, AsGuide, ""},
		{"unknown tool, -32602, HTTP 400", LessonUnknownTool, "unknown-tool", "1", modern, true, 400, errWith("-32602", ""), false, AsGuide, ""},
		{"unknown tool, -32602, HTTP 200 stateless", LessonUnknownTool, "unknown-tool", "1", modern, true, 200, errWith("-32602", ""), false, Allowed, "HTTP 200 where the guide sends 400"},
		{"unknown tool, a tool error", LessonUnknownTool, "unknown-tool", "1", modern, false, 0, toolError, false, Allowed, "proposal"},
		{"unknown tool, a result", LessonUnknownTool, "unknown-tool", "1", modern, false, 0, result, false, AgainstShould, ""},
		{"unknown tool, the wrong id", LessonUnknownTool, "unknown-tool", "2", modern, false, 0, errWith("-32602", ""), false, AgainstMust, "not 2"},
		{"unknown tool, silence", LessonUnknownTool, "unknown-tool", "1", modern, false, 0, "", true, AgainstMust, "no reply"},

		{"validation, a tool error", LessonValidation, "invalid-arguments", "1", modern, false, 0, toolError, false, AsGuide, ""},
		{"validation, -32602 at 2025-11-25", LessonValidation, "invalid-arguments", "1", legacy, false, 0, errWith("-32602", ""), false, AgainstShould, "SEP-1303"},
		{"validation, -32602 at 2025-06-18", LessonValidation, "invalid-arguments", "1", old, false, 0, errWith("-32602", ""), false, Allowed, "before 2025-11-25"},
		{"validation, a result", LessonValidation, "invalid-arguments", "1", legacy, false, 0, result, false, AgainstMust, "handler ran"},

		{"large argument, a result", LessonLargeArgument, "", "1", modern, false, 0, result, false, AsGuide, "reached the handler"},
		{"large argument, a tool error", LessonLargeArgument, "", "1", modern, false, 0, toolError, false, AsGuide, ""},
		{"large argument, a tool error, HTTP 400", LessonLargeArgument, "", "1", modern, true, 400, toolError, false, Allowed, "HTTP 400 where the guide sends 200"},
		{"large argument, -32600", LessonLargeArgument, "", "1", modern, false, 0, errWith("-32600", ""), false, Allowed, "maxLength"},
		{"large argument, -32603", LessonLargeArgument, "", "1", legacy, false, 0, errWith("-32603", ""), false, AgainstShould, "never reads"},

		{"malformed line, -32700", LessonMalformedLine, "parse-error", "", modern, false, 0, nullID("-32700"), false, AsGuide, ""},
		{"malformed line, silence", LessonMalformedLine, "parse-error", "", modern, false, 0, "", true, Allowed, "no reply"},
		{"malformed line, another code", LessonMalformedLine, "parse-error", "", modern, false, 0, nullID("-32600"), false, Allowed, "code -32600"},
		{"malformed line, an id", LessonMalformedLine, "parse-error", "", modern, false, 0, errWith("-32700", ""), false, AgainstMust, "none that could be read"},
		{"malformed body, HTTP 400", LessonMalformedLine, "parse-error", "", modern, true, 400, nullID("-32700"), false, AsGuide, ""},

		{"unknown method, -32601", LessonUnknownMethod, "method-not-found", "1", legacy, false, 0, errWith("-32601", ""), false, AsGuide, ""},
		{"unknown method, HTTP 200 stateless", LessonUnknownMethod, "method-not-found", "1", modern, true, 200, errWith("-32601", ""), false, AgainstMust, "HTTP 200"},
		{"unknown method, HTTP 200 in a session", LessonUnknownMethod, "method-not-found", "1", legacy, true, 200, errWith("-32601", ""), false, AsGuide, ""},
		{"unknown method, -32602", LessonUnknownMethod, "method-not-found", "1", legacy, false, 0, errWith("-32602", ""), false, Allowed, ""},

		{"batch, -32600", LessonBatch, "batch-unsupported", "", modern, false, 0, nullID("-32600"), false, AsGuide, ""},
		{"batch, answered", LessonBatch, "batch-unsupported", "", modern, false, 0, `[` + result + `]`, false, Allowed, "batch"},

		{"version, -32022", LessonUnsupportedVersion, "unsupported-version", "1", modern, false, 0, errWith("-32022", `,"data":{"supported":["2026-07-28"],"requested":"1900-01-01"}`), false, AsGuide, ""},
		{"version, -32022 without supported", LessonUnsupportedVersion, "unsupported-version", "1", modern, false, 0, errWith("-32022", ""), false, AgainstMust, "supported"},
		{"version, -32602", LessonUnsupportedVersion, "unsupported-version", "1", modern, false, 0, errWith("-32602", ""), false, AgainstMust, ""},
		{"version, served", LessonUnsupportedVersion, "unsupported-version", "1", modern, false, 0, result, false, AgainstMust, ""},

		{"not found, -32602 with uri", LessonResourceNotFound, "resource-not-found", "1", legacy, false, 0, errWith("-32602", `,"data":{"uri":"x://y"}`), false, AsGuide, ""},
		{"not found, -32602 without uri", LessonResourceNotFound, "resource-not-found", "1", legacy, false, 0, errWith("-32602", ""), false, AgainstShould, "no uri"},
		{"not found, -32002 in a session", LessonResourceNotFound, "resource-not-found", "1", legacy, false, 0, errWith("-32002", `,"data":{"uri":"x://y"}`), false, Allowed, "-32002"},
		{"not found, -32002 stateless", LessonResourceNotFound, "resource-not-found", "1", modern, false, 0, errWith("-32002", `,"data":{"uri":"x://y"}`), false, AgainstMust, ""},
		{"not found, -32603 stateless", LessonResourceNotFound, "resource-not-found", "1", modern, false, 0, errWith("-32603", ""), false, AgainstMust, ""},
		{"not found, -32603 in a session", LessonResourceNotFound, "resource-not-found", "1", legacy, false, 0, errWith("-32603", ""), false, AgainstShould, ""},
		{"not found, empty contents", LessonResourceNotFound, "resource-not-found", "1", modern, false, 0, `{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}`, false, AgainstMust, ""},
		{"not found, contents", LessonResourceNotFound, "resource-not-found", "1", modern, false, 0, `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"x://y","text":"z"}]}}`, false, NotChecked, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &Probe{Lesson: tt.lesson, Row: tt.row, ID: tt.id, Prop: "q", Settle: tt.id == ""}
			a := &Answer{Version: tt.version, HTTP: tt.http, Status: tt.status, Silent: tt.silent, Next: true}
			if tt.reply != "" {
				a.Reply = []byte(tt.reply)
			}
			vs := Judge(p, a)
			if len(vs) != 1 {
				t.Fatalf("got %d verdicts, want 1: %+v", len(vs), vs)
			}
			v := vs[0]
			if v.Kind != tt.want || !strings.Contains(v.Detail, tt.detail) {
				t.Errorf("got %v (%s), want %v with %q", v.Kind, v.Detail, tt.want, tt.detail)
			}
			if (v.Kind == AgainstMust || v.Kind == AgainstShould) && v.Quote == nil {
				t.Errorf("%v quotes nothing", v.Kind)
			}
			if v.Kind == AgainstShould && !strings.Contains(strings.ToUpper(v.Quote.Text), "SHOULD") ||
				v.Kind == AgainstMust && !strings.Contains(v.Quote.Text, "MUST") {
				t.Errorf("%v quotes %q", v.Kind, v.Quote.Text)
			}
		})
	}
}

// TestJudgeValidationTrace: arguments that break the schema answered with
// a stack trace, as a tool error or a JSON-RPC error, show that a handler
// ran with them and failed: against the MUST to validate, not as the
// guide; and the trace is reported as a leak besides.
func TestJudgeValidationTrace(t *testing.T) {
	p := &Probe{Lesson: LessonValidation, Row: "invalid-arguments", ID: "1", Prop: "q"}
	trace := `panic: runtime error: index out of range [0] with length 0\n\ngoroutine 7 [running]:\nmain.search(...)`
	for _, reply := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + trace + `"}],"isError":true}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"` + trace + `"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Traceback (most recent call last):\n  File \"app.py\", line 3"}],"isError":true}}`,
	} {
		a := &Answer{Version: "2026-07-28", Reply: []byte(reply), Received: texts([]byte(reply))}
		vs := Judge(p, a)
		if v := vs[0]; v.Kind != AgainstMust || v.Quote != qValidate || !strings.Contains(v.Detail, "handler ran") {
			t.Errorf("%s: got %v (%s), want against the MUST to validate", reply, v.Kind, v.Detail)
		}
		if len(vs) < 2 || vs[1].Kind != Leaks {
			t.Errorf("%s: the trace is not reported as a leak: %+v", reply, vs)
		}
	}
	// The text the check sent, echoed, is no trace of the server's.
	a := &Answer{Version: "2026-07-28", Sent: []string{"at main.go:12 panic: x"},
		Reply: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"q is required; you sent at main.go:12 panic: x"}],"isError":true}}`)}
	if v := Judge(p, a)[0]; v.Kind != AsGuide {
		t.Errorf("an echo: got %v (%s), want as the guide", v.Kind, v.Detail)
	}
}

// TestJudgeRows checks that every row a lesson names is in the error
// table, so that no verdict links a section that does not exist.
func TestJudgeRows(t *testing.T) {
	for _, name := range []string{"unknown-tool", "invalid-arguments", "parse-error", "method-not-found", "jsonrpc-version",
		"bad-id", "batch-unsupported", "http-batch", "unsupported-version", "resource-not-found", "unknown-resource", "output-invalid", "tool-panic"} {
		guideRow(name) // panics on a missing row
	}
	if got := guideRow("unknown-tool").status(true); got != 400 {
		t.Errorf("unknown-tool stateless: status %d, want 400", got)
	}
	if got := guideRow("method-not-found").status(true); got != 404 {
		t.Errorf("method-not-found stateless: status %d, want 404", got)
	}
}

// TestJudgeDeathAndHang: a server that died or answered nothing gets a
// verdict against the MUST that every request is answered, with how it
// ended.
func TestJudgeDeathAndHang(t *testing.T) {
	p := &Probe{Lesson: LessonUnknownTool, Row: "unknown-tool", ID: "1"}
	v := Judge(p, &Answer{Exit: "exit status 2; its last lines of stderr: boom"})[0]
	if v.Kind != AgainstMust || !strings.Contains(v.Detail, "boom") || v.Reply != "the server exited" {
		t.Errorf("a death: %+v", v)
	}
	v = Judge(p, &Answer{Hung: true, Wait: "5s"})[0]
	if v.Kind != AgainstMust || !strings.Contains(v.Detail, "within 5s") {
		t.Errorf("a hang: %+v", v)
	}
}

// TestJudgeCall: a call with arguments that fit is judged by its result
// against the tool's output schema, which the server MUST keep.
func TestJudgeCall(t *testing.T) {
	out, err := parseSchema([]byte(`{"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := &Probe{Lesson: LessonCall, Row: "output-invalid", ID: "1", Output: out}
	for _, tt := range []struct {
		result string
		want   Kind
	}{
		{`{"content":[],"structuredContent":{"price":12.5}}`, AsGuide},
		{`{"content":[],"structuredContent":{"price":"twelve"}}`, AgainstMust},
		{`{"content":[{"type":"text","text":"12.5"}]}`, AgainstMust},
		{`{"content":[{"type":"text","text":"No such book"}],"isError":true}`, AsGuide},
	} {
		v := Judge(p, &Answer{Version: "2026-07-28", Reply: []byte(`{"jsonrpc":"2.0","id":1,"result":` + tt.result + `}`)})[0]
		if v.Kind != tt.want || v.Kind == AgainstMust && v.Quote != qOutput {
			t.Errorf("%s: got %v (%s), want %v", tt.result, v.Kind, v.Detail, tt.want)
		}
	}
}

// TestReplyFormData holds the short form of an error to what its data is:
// an object's keys, which a verdict may compare, or the kind of anything else.
func TestReplyFormData(t *testing.T) {
	p := &Probe{Lesson: LessonUnknownTool, ID: "1"}
	for data, want := range map[string]string{
		``:                          `error -32601 "Method not found"`,
		`,"data":{"uri":"u","a":1}`: `error -32601 "Method not found" data{a,uri}`,
		`,"data":{}`:                `error -32601 "Method not found" data{}`,
		`,"data":"tools/frob"`:      `error -32601 "Method not found" data(string)`,
		`,"data":["a"]`:             `error -32601 "Method not found" data(array)`,
		`,"data":-1.5`:              `error -32601 "Method not found" data(number)`,
		`,"data":false`:             `error -32601 "Method not found" data(boolean)`,
		`,"data":null`:              `error -32601 "Method not found" data(null)`,
	} {
		reply := []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"` + data + `}}`)
		if got := replyForm(p, &Answer{Reply: reply}, classify(reply)); got != want {
			t.Errorf("data %s: got %s, want %s", data, got, want)
		}
	}
}
