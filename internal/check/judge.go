package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

// class is the class of a reply: what a verdict compares.
type class struct {
	kind     string // "error", "tool error", "result", "batch" or "" for none
	code     int
	id       string                     // compact JSON; "" when absent
	dataKeys []string                   // when data is an object
	dataKind string                     // "" for no data, else "object", "string", "array", "number", "boolean" or "null"
	text     string                     // an error's message, or a result's first text
	result   map[string]json.RawMessage // a result's members
}

// classify returns the class of a reply line.
func classify(reply []byte) class {
	reply = bytes.TrimSpace(reply)
	if len(reply) == 0 {
		return class{}
	}
	if reply[0] == '[' {
		return class{kind: "batch"}
	}
	var r struct {
		ID     json.RawMessage            `json:"id"`
		Result map[string]json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(reply, &r) != nil {
		return class{}
	}
	c := class{id: compactJSON(r.ID)}
	switch {
	case r.Error != nil:
		c.kind, c.code, c.text = "error", r.Error.Code, r.Error.Message
		c.dataKind = jsonKind(r.Error.Data)
		var data map[string]json.RawMessage
		if json.Unmarshal(r.Error.Data, &data) == nil {
			for k := range data {
				c.dataKeys = append(c.dataKeys, k)
			}
			slices.Sort(c.dataKeys)
		}
	case r.Result != nil:
		c.kind, c.result = "result", r.Result
		var isError bool
		json.Unmarshal(r.Result["isError"], &isError)
		if isError {
			c.kind = "tool error"
		}
		var content []struct{ Text string }
		if json.Unmarshal(r.Result["content"], &content) == nil && len(content) > 0 {
			c.text = content[0].Text
		}
	}
	return c
}

// jsonKind returns the kind of a JSON value, "" for none.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '"':
		return "string"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// compactJSON returns raw compacted, or "" for none.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// Judge decides what the answer a to probe p says of the server: the
// verdict on its class for p's lesson, then one for each line it wrote to
// stdout that is not a message, then one for each kind of internals its
// texts show. Every verdict mcpc check gives, and every judgment of the
// tests, comes from it.
func Judge(p *Probe, a *Answer) []Verdict {
	c := classify(a.Reply)
	v := Verdict{Lesson: p.Lesson, Target: p.Target, Version: a.Version, Row: p.Row, Request: p.Short, Reply: replyForm(p, a, c)}
	v.Kind, v.Detail, v.Quote = judgeClass(p, a, c)
	if len(a.Late) > 0 {
		v.Detail = join(v.Detail, fmt.Sprintf("a late reply to an earlier request (id %s) came meanwhile and was set aside", strings.Join(a.Late, ", ")))
	}
	out := []Verdict{v}
	if len(a.Stray) > 0 {
		out = append(out, Verdict{Lesson: LessonStdout, Target: p.Lesson + " · " + p.Target, Version: a.Version, Kind: AgainstMust, Quote: qStdout,
			Detail: fmt.Sprintf("it wrote %q to stdout", shorten(a.Stray[0], 80)), Request: p.Short, Reply: v.Reply})
	}
	for _, l := range scanLeaks(a.Received, a.Sent) {
		out = append(out, Verdict{Lesson: LessonInternals, Target: p.Lesson + " · " + p.Target, Version: a.Version, Kind: Leaks, Row: "tool-panic",
			Detail: fmt.Sprintf("%s: %q", l.what, l.quote), Request: p.Short, Reply: v.Reply})
	}
	return out
}

// judgeClass judges the class of the answer for p's lesson.
func judgeClass(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	switch {
	case a.Exit != "" && a.HTTP:
		return AgainstMust, "no HTTP response: " + a.Exit, qReply
	case a.Exit != "":
		return AgainstMust, "the server exited: " + a.Exit, qReply
	case a.Overlong:
		return NotChecked, fmt.Sprintf("the reply is longer than the %d MiB the check reads; its start is shown", maxLine>>20), nil
	case a.Hung && p.Lesson == LessonCancellation:
		return AgainstMust, "no reply to the request sent after the cancellation within " + a.Wait, qReply
	case a.Hung:
		return AgainstMust, "no reply within " + a.Wait + ", not even to a request sent after it", qReply
	}
	if p.Lesson == LessonCancellation {
		return AsGuide, "", nil // whether the cancelled request was answered is a race the spec allows either way
	}
	silentOK := p.Lesson == LessonMalformedLine || p.Lesson == LessonInvalidRequest || p.Lesson == LessonBatch
	if c.kind == "" && a.Silent && p.runsHandler() {
		why := "no reply within " + a.Wait + ", though it answered a request sent after it: a slow tool, or one that waits for a cancellation (raise -wait)"
		if p.Lesson == LessonValidation {
			why += "; a server that validates arguments answers at once, so the handler may be running with them"
		}
		return NotChecked, why, nil
	}
	if c.kind == "" && !silentOK {
		if a.HTTP && !a.Silent {
			return AgainstMust, fmt.Sprintf("HTTP %d with no JSON-RPC response", a.Status), qReply
		}
		return AgainstMust, "no reply within " + a.Wait + ", though it answered a request sent after it", qReply
	}
	if p.ID != "" && (c.kind == "error" || c.kind == "result" || c.kind == "tool error") && c.id != p.ID && !(silentOK && c.id == "null") {
		return AgainstMust, fmt.Sprintf("the reply's id is %s, not %s", orNone(c.id), p.ID), qSameID
	}
	switch p.Lesson {
	case LessonUnknownTool:
		return judgeUnknownTool(p, a, c)
	case LessonValidation:
		return judgeValidation(p, a, c)
	case LessonMalformedLine, LessonInvalidRequest, LessonBatch:
		return judgeBadMessage(p, a, c)
	case LessonUnknownMethod:
		return judgeUnknownMethod(p, a, c)
	case LessonUnsupportedVersion:
		return judgeVersion(p, a, c)
	case LessonResourceNotFound:
		return judgeNotFound(p, a, c)
	case LessonCall:
		return judgeCall(p, c)
	case LessonLargeArgument:
		return judgeLarge(a, c)
	}
	panic("check: no judgment for lesson " + p.Lesson)
}

func orNone(id string) string {
	if id == "" {
		return "missing"
	}
	return id
}

// asRow returns AsGuide when c is of the class of p's row (over HTTP with
// its status too), and otherwise Allowed, saying what differs.
func asRow(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	return asNamedRow(p.Row, a)
}

// asNamedRow is asRow for the row called name.
func asNamedRow(name string, a *Answer) (Kind, string, *Quote) {
	r := guideRow(name)
	if a.HTTP {
		if want := r.status(a.Version == mcp.ModernVersion); want != 0 && a.Status != want {
			return Allowed, fmt.Sprintf("HTTP %d where the guide sends %d", a.Status, want), nil
		}
	}
	return AsGuide, "", nil
}

func judgeUnknownTool(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	switch {
	case c.kind == "error" && c.code == mcp.CodeInvalidParams:
		return asRow(p, a, c)
	case c.kind == "tool error":
		return Allowed, "a tool result with isError set, as a proposal for the spec would have it (and the Python SDK's MCPServer answers)", nil
	case c.kind == "error":
		return Allowed, fmt.Sprintf("a JSON-RPC error with code %d; the spec's example uses -32602", c.code), nil
	}
	return AgainstShould, "a " + c.kind + ": the model is told the call succeeded", qFindingTool
}

func judgeValidation(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	if l, ok := stackTrace(texts(a.Reply), a.Sent); ok && (c.kind == "tool error" || c.kind == "error") {
		// A validator refuses arguments; it does not crash on them.
		return AgainstMust, fmt.Sprintf("a %s with %s: the handler ran with the invalid arguments and failed", c.kind, l.what), qValidate
	}
	switch c.kind {
	case "tool error":
		k, d, q := asRow(p, a, c)
		if p.Prop != "" && !strings.Contains(c.text, p.Prop) {
			d = join(d, fmt.Sprintf("the text does not name %q: it reads as the handler's answer, not a validator's, and the handler may have run with the invalid arguments", p.Prop))
		}
		return k, d, q
	case "error":
		if a.Version < "2025-11-25" && c.code == mcp.CodeInvalidParams {
			return Allowed, "-32602, the answer to invalid arguments before 2025-11-25 (SEP-1303 made them tool errors)", nil
		}
		d := fmt.Sprintf("a JSON-RPC error %d, which the model never reads; since 2025-11-25 invalid arguments are a tool error (SEP-1303)", c.code)
		if c.code == mcp.CodeInternalError {
			d += "; an internal error reads as the handler's failure, not a validator's: the handler may have run with the invalid arguments"
		}
		return AgainstShould, d, qToolErrorsInResult
	}
	return AgainstMust, "a " + c.kind + " without isError: the handler ran with the invalid arguments", qValidate
}

// judgeLarge judges the answer to a very large string where the schema
// states no bound: the guide's core takes it (its limit on a message is
// 4 MiB), so its handler answers, with a result or a tool error.
func judgeLarge(a *Answer, c class) (Kind, string, *Quote) {
	switch {
	case c.kind == "result" || c.kind == "tool error":
		k, d, q := asNamedRow("tool-error", a)
		return k, join("a "+c.kind+": the string reached the handler, as the schema allows", d), q
	case c.kind == "error" && c.code == mcp.CodeInvalidRequest:
		return Allowed, "-32600: a limit on the message's size below the string's; the schema states no maxLength, so the model cannot know the limit", nil
	case c.kind == "error":
		return AgainstShould, fmt.Sprintf("a JSON-RPC error %d to arguments the schema allows, which the model never reads", c.code), qToolErrorsInResult
	}
	return Allowed, "a " + c.kind, nil
}

// judgeBadMessage judges the answer to a message that is not a valid
// request: a line that is not JSON, an invalid request, a batch. The
// client broke a MUST in sending it, so silence is allowed; a reply must
// still say null where no id could be read.
func judgeBadMessage(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	want := map[string]int{LessonMalformedLine: mcp.CodeParseError, LessonInvalidRequest: mcp.CodeInvalidRequest, LessonBatch: mcp.CodeInvalidRequest}[p.Lesson]
	switch c.kind {
	case "error":
		if p.ID == "" && c.id != "null" && c.id != "" {
			return AgainstMust, "the error's id is " + c.id + ", though the message had none that could be read", qNullID
		}
		if c.code != want {
			return Allowed, fmt.Sprintf("code %d; JSON-RPC 2.0 names %d for it", c.code, want), nil
		}
		return asRow(p, a, c)
	case "batch":
		return Allowed, "it answered a JSON-RPC 2.0 batch, which MCP removed in 2025-06-18", nil
	case "":
		if a.HTTP {
			return Allowed, fmt.Sprintf("HTTP %d with no JSON-RPC error", a.Status), nil
		}
		return Allowed, fmt.Sprintf("no reply, then it answered the next request; JSON-RPC 2.0 would answer %d, but a client MUST NOT send such a line, and MCP does not say what a server answers", want), nil
	}
	return Allowed, "it served it as a request: a lenient reading", nil
}

func judgeUnknownMethod(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	modernHTTP := a.HTTP && a.Version == mcp.ModernVersion
	switch {
	case c.kind == "error" && c.code == mcp.CodeMethodNotFound:
		if modernHTTP && a.Status != 404 {
			return AgainstMust, fmt.Sprintf("HTTP %d", a.Status), qMethodHTTP
		}
		return asRow(p, a, c)
	case modernHTTP:
		return AgainstMust, fmt.Sprintf("a %s, HTTP %d", c.kind, a.Status), qMethodHTTP
	case c.kind == "error":
		return Allowed, fmt.Sprintf("code %d; JSON-RPC 2.0 names -32601 for a method that does not exist", c.code), nil
	}
	return Allowed, "a " + c.kind + ": it says it has a method the check made up", nil
}

func judgeVersion(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	if p.Method == "initialize" {
		var r struct{ ProtocolVersion string }
		if c.kind == "error" {
			return Allowed, "an error, as the 2025-11-25 lifecycle page's example (-32602 Unsupported protocol version)", nil
		}
		json.Unmarshal(mustJSON(c.result), &r)
		switch {
		case r.ProtocolVersion == unsupportedVersion:
			return AgainstMust, "it answered with the version it was asked for", qNegotiate
		case slices.Contains(mcp.LegacyVersions(), r.ProtocolVersion):
			return AsGuide, "it offered " + r.ProtocolVersion, nil
		}
		return Allowed, fmt.Sprintf("it offered %q, a version this check does not know", r.ProtocolVersion), nil
	}
	switch {
	case c.kind == "error" && c.code == mcp.CodeUnsupportedProtocolVersion:
		if !slices.Contains(c.dataKeys, "supported") {
			return AgainstMust, "its data does not list the supported versions", qVersion
		}
		return asRow(p, a, c)
	case c.kind == "error":
		return AgainstMust, fmt.Sprintf("code %d, not -32022", c.code), qVersion
	}
	return AgainstMust, "a " + c.kind + ": it served a version it does not speak", qVersion
}

func judgeNotFound(p *Probe, a *Answer, c class) (Kind, string, *Quote) {
	modern := a.Version == mcp.ModernVersion
	switch {
	case c.kind == "error" && c.code == mcp.CodeInvalidParams:
		for _, k := range guideRow(p.Row).dataKeys() { // the uri
			if !slices.Contains(c.dataKeys, k) {
				return AgainstShould, "its data has no " + k, qDataURI
			}
		}
		return asRow(p, a, c)
	case c.kind == "error" && c.code == client.CodeLegacyResourceNotFound && !modern:
		return Allowed, "-32002, the code of the specs up to 2025-11-25 (the guide sends -32602 in every era, as SEP-2164 has it)", nil
	case c.kind == "error" && c.code == client.CodeLegacyResourceNotFound:
		return AgainstMust, "-32002 at 2026-07-28", qRetired
	case c.kind == "error" && modern:
		return AgainstMust, fmt.Sprintf("code %d", c.code), qNotFound
	case c.kind == "error":
		return AgainstShould, fmt.Sprintf("code %d", c.code), qNotFoundLegacy
	}
	var contents []json.RawMessage
	json.Unmarshal(c.result["contents"], &contents)
	switch {
	case len(contents) > 0:
		return NotChecked, "it returned contents: it may hold a resource there", nil
	case modern:
		return AgainstMust, "a result with no contents", qNoEmptyContents
	}
	return AgainstShould, "a result with no contents", qNotFoundLegacy
}

func judgeCall(p *Probe, c class) (Kind, string, *Quote) {
	switch c.kind {
	case "tool error":
		return AsGuide, "a tool error (the generated arguments may name nothing it holds)", nil
	case "error":
		return Allowed, fmt.Sprintf("a JSON-RPC error %d to arguments that fit the schema", c.code), nil
	}
	if p.Output == nil {
		return AsGuide, "a result", nil
	}
	raw, ok := c.result["structuredContent"]
	if !ok {
		return AgainstMust, "the tool has an output schema, and the result has no structuredContent", qOutput
	}
	if err := validate(p.Output, raw); err != nil {
		return AgainstMust, "structuredContent does not fit the output schema: " + err.Error(), qOutput
	}
	return AsGuide, "a result that fits its output schema", nil
}

// join joins two sentences of a detail.
func join(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// replyForm returns the answer in one short form.
func replyForm(p *Probe, a *Answer, c class) string {
	var s string
	switch {
	case p.Lesson == LessonCancellation && a.Exit == "" && !a.Hung:
		s = "the next request answered"
	case a.Exit != "" && a.HTTP:
		s = "no HTTP response"
	case a.Exit != "":
		s = "the server exited"
	case a.Overlong:
		s = fmt.Sprintf("over %d MiB, starting %s", maxLine>>20, shorten(string(a.Reply), 72))
	case a.Hung:
		s = "no reply within " + a.Wait
	case c.kind == "error":
		s = fmt.Sprintf("error %d %q", c.code, shorten(c.text, 72))
		switch c.dataKind {
		case "":
		case "object": // the keys a verdict may compare
			s += " data{" + strings.Join(c.dataKeys, ",") + "}"
		default: // no keys: what it is
			s += " data(" + c.dataKind + ")"
		}
		if c.id == "null" {
			s += " id null"
		}
	case c.kind == "tool error":
		s = fmt.Sprintf("tool error %q", shorten(c.text, 72))
	case c.kind == "result":
		s = "result " + shorten(compactJSON(mustJSON(c.result)), 72)
	case c.kind == "batch":
		s = "a batch of replies"
	case a.Silent && p.owed():
		s = "no reply within " + a.Wait
	case a.Silent:
		s = "no reply (the next request was answered)"
	default:
		s = "no reply"
	}
	if a.HTTP && a.Status != 0 && p.Lesson != LessonCancellation {
		s = fmt.Sprintf("HTTP %d %s", a.Status, s)
	}
	return s
}

// runsHandler reports whether p calls a tool, whose handler may take its
// time: its silence is not the protocol's.
func (p *Probe) runsHandler() bool {
	return p.Lesson == LessonCall || p.Lesson == LessonLargeArgument || p.Lesson == LessonValidation
}
