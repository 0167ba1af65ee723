package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// tool is a tool as the server lists it.
type tool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// catalog is what the server lists: what the lessons are built from.
type catalog struct {
	tools     []tool
	published []string // the texts of the tools' schemas: the server's interface, which a reply may repeat
	templates []string // URI templates
	noTools   string   // why there are no tools to probe, when tools/list failed
	noRes     string   // why there are no resources to probe, when both lists failed
}

// absent is the value the check gives a template's variables, which no
// catalog holds.
const absent = breakTag + "-absent"

// discover lists the server's tools and resource templates, every page.
func (s *session) discover(ctx context.Context) (*catalog, error) {
	c := &catalog{}
	var failed []string
	list := func(method, member string, each func(json.RawMessage)) error {
		cursor := ""
		for range 100 {
			var params map[string]any
			if cursor != "" {
				params = map[string]any{"cursor": cursor}
			}
			res, err := s.call(ctx, method, "", params)
			var perr *mcp.Error
			if errors.As(err, &perr) {
				failed = append(failed, fmt.Sprintf("%s answered %d %s", method, perr.Code, perr.Message))
				return nil
			}
			if err != nil {
				return err
			}
			var page map[string]json.RawMessage
			json.Unmarshal(res, &page)
			var items []json.RawMessage
			json.Unmarshal(page[member], &items)
			for _, it := range items {
				each(it)
			}
			json.Unmarshal(page["nextCursor"], &cursor)
			if cursor == "" {
				return nil
			}
		}
		return nil
	}
	if err := list("tools/list", "tools", func(raw json.RawMessage) {
		var t tool
		if json.Unmarshal(raw, &t) == nil && t.Name != "" {
			c.tools = append(c.tools, t)
			c.published = append(c.published, texts(t.InputSchema)...)
		}
	}); err != nil {
		return nil, err
	}
	if len(failed) > 0 {
		c.noTools, failed = failed[0], nil
	}
	resourcesListed := true
	if err := list("resources/list", "resources", func(json.RawMessage) {}); err != nil {
		return nil, err
	}
	if len(failed) > 0 {
		resourcesListed = false
	}
	if err := list("resources/templates/list", "resourceTemplates", func(raw json.RawMessage) {
		var t struct{ URITemplate string }
		if json.Unmarshal(raw, &t) == nil && t.URITemplate != "" {
			c.templates = append(c.templates, t.URITemplate)
		}
	}); err != nil {
		return nil, err
	}
	if !resourcesListed && len(failed) == 2 {
		c.noRes = strings.Join(failed, "; ")
	}
	return c, nil
}

// planner builds a session's probes.
type planner struct {
	s      *session
	cfg    *Config
	http   bool
	probes []*Probe
	skips  []Verdict // the lessons that have nothing to send, with why
}

// add adds a probe of a request to method with params, as the session
// sends it, at version (the session's when "").
func (pl *planner) add(p *Probe, method string, params map[string]any) {
	id := pl.s.id()
	version := pl.s.version
	if p.Version != "" {
		version = p.Version
	}
	p.Version, p.Method = version, method
	p.ID = strconv.Itoa(id)
	p.Lines = append([][]byte{pl.s.msgAt(version, id, method, params)}, p.Lines...)
	p.Short = method + " " + shortParams(params)
	pl.probes = append(pl.probes, p)
}

// raw adds a probe of a message as given, whose id cannot be read.
func (pl *planner) raw(p *Probe, msg []byte) {
	p.Version, p.Lines, p.Settle = pl.s.version, [][]byte{msg}, true
	p.HTTPBody = p.Method == ""
	if p.Short == "" {
		p.Short = shorten(string(msg), 100)
	}
	pl.probes = append(pl.probes, p)
}

// skip records a lesson that has nothing to send, and why.
func (pl *planner) skip(lesson, target, why string) {
	pl.skips = append(pl.skips, Verdict{Lesson: lesson, Target: target, Version: pl.s.version, Kind: NotChecked, Detail: why})
}

// shortParams returns params as compact JSON, _meta left out, shortened.
func shortParams(params map[string]any) string {
	shown := map[string]any{}
	for k, v := range params {
		if k != "_meta" {
			shown[k] = v
		}
	}
	return shorten(string(encode(shown)), 100)
}

// plan builds every probe of the session's lessons from what the server
// lists.
func (pl *planner) plan(c *catalog) {
	pl.unknownTool(c)
	for _, t := range c.tools {
		pl.toolLessons(t)
	}
	if c.noTools != "" {
		pl.skip(LessonValidation, "", "the server offers no tools: "+c.noTools)
	}
	for _, name := range pl.cfg.Tools {
		if !slices.ContainsFunc(c.tools, func(t tool) bool { return t.Name == name }) {
			pl.skip(LessonValidation, "tool "+name, "-tools names it, but the server lists no tool of that name")
		}
	}
	pl.messages(c)
	pl.resources(c)
	pl.cancellation(c)
}

func (pl *planner) unknownTool(c *catalog) {
	if c.noTools != "" {
		pl.skip(LessonUnknownTool, "", "the server offers no tools: "+c.noTools)
		return
	}
	name := breakTag + "-no-such-tool"
	for slices.ContainsFunc(c.tools, func(t tool) bool { return t.Name == name }) {
		name += "-"
	}
	pl.add(&Probe{Lesson: LessonUnknownTool, Target: name, Row: "unknown-tool", Name: name},
		"tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
}

// selected reports whether the check may call tool name with arguments
// that keep the others valid.
func (pl *planner) selected(name string) bool {
	return pl.cfg.Call || slices.Contains(pl.cfg.Tools, name)
}

// toolLessons adds the probes of one tool: its arguments broken, and for
// a selected tool, its bounds probed and a call that fits.
func (pl *planner) toolLessons(t tool) {
	in, err := parseSchema(t.InputSchema)
	if err != nil {
		pl.skip(LessonValidation, "tool "+t.Name, "its input schema does not parse: "+err.Error())
		return
	}
	sel := pl.selected(t.Name)
	n := 0
	for _, b := range Breaks(in) {
		if !b.Safe && !sel {
			continue
		}
		n++
		pl.add(&Probe{Lesson: LessonValidation, Target: "tool " + t.Name + ": " + b.How, Row: "invalid-arguments", Name: t.Name, Prop: b.Prop},
			"tools/call", map[string]any{"name": t.Name, "arguments": b.Args})
	}
	if n == 0 {
		why := "no required property to leave out or give the wrong type"
		if !sel {
			why += "; name it with -tools, or give -call, to probe its bounds"
		}
		pl.skip(LessonValidation, "tool "+t.Name, why)
	}
	if !sel {
		return
	}
	for _, name := range propNames(in) {
		p := in.Properties[name]
		if p == nil || !slices.Contains(types(p), "string") || p.MaxLength != nil || p.Pattern != "" || len(p.Enum) > 0 || p.Const != nil || p.Format != "" {
			continue
		}
		args := fitExcept(in, name)
		args[name] = strings.Repeat("x", largeString)
		pl.add(&Probe{Lesson: LessonLargeArgument, Target: fmt.Sprintf("tool %s: %s of %d KiB", t.Name, name, largeString>>10), Name: t.Name},
			"tools/call", map[string]any{"name": t.Name, "arguments": args})
	}
	if pl.cfg.Call {
		args, _ := Fit(in)
		out, _ := parseSchema(t.OutputSchema)
		pl.add(&Probe{Lesson: LessonCall, Target: "tool " + t.Name, Row: "output-invalid", Name: t.Name, Output: out},
			"tools/call", map[string]any{"name": t.Name, "arguments": args})
	}
}

// largeString is the length of the very large string a selected tool is
// given: far past what a model sends, well within a server's limit.
const largeString = 256 << 10

// parseSchema parses a schema; nil for none.
func parseSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// messages adds the probes of messages that are not valid requests, of an
// unknown method and of an unsupported version.
func (pl *planner) messages(c *catalog) {
	s := pl.s
	pl.raw(&Probe{Lesson: LessonMalformedLine, Target: "not JSON", Row: "parse-error"}, []byte(`{"jsonrpc": "2.0", "id": 1, "method": "tools/list" (not JSON)`))
	pl.add(&Probe{Lesson: LessonUnknownMethod, Target: breakTag + "/no-such-method", Row: "method-not-found"}, breakTag+"/no-such-method", nil)

	// The invalid requests and the batch ask for a list the server
	// offers, so that a lenient reading of them meets a method it has.
	list := pl.listMethod(c)
	id := s.id()
	bad := map[string]any{}
	json.Unmarshal(s.msg(id, list, nil), &bad)
	shown := func() string { // the message without _meta
		m := maps.Clone(bad)
		delete(m, "params")
		return string(encode(m))
	}
	bad["jsonrpc"] = "1.0"
	pl.raw(&Probe{Lesson: LessonInvalidRequest, Target: `"jsonrpc": "1.0"`, Row: "jsonrpc-version", ID: strconv.Itoa(id), Method: list, Short: shown()}, encode(bad))
	bad["jsonrpc"], bad["id"] = "2.0", map[string]any{"mcpc": "check"}
	pl.raw(&Probe{Lesson: LessonInvalidRequest, Target: "an id that is an object", Row: "bad-id", Method: list, Short: shown()}, encode(bad))

	row := "batch-unsupported"
	if pl.http {
		row = "http-batch"
	}
	first, second := s.id(), s.id()
	batch := fmt.Sprintf("[%s,%s]", s.msg(first, list, nil), s.msg(second, list, nil))
	pl.raw(&Probe{Lesson: LessonBatch, Target: "two " + list, Row: row, Method: list, Short: fmt.Sprintf("[%s, %s]", list, list),
		Inner: []string{strconv.Itoa(first), strconv.Itoa(second)}}, []byte(batch))

	if s.modern {
		pl.add(&Probe{Lesson: LessonUnsupportedVersion, Target: unsupportedVersion, Row: "unsupported-version", Version: unsupportedVersion}, pl.listMethod(c), nil)
	} else {
		pl.add(&Probe{Lesson: LessonUnsupportedVersion, Target: "initialize " + unsupportedVersion, Row: "unsupported-version", Fresh: true, Version: ""},
			"initialize", initParams(unsupportedVersion))
	}
}

// resources adds a read of a URI each template makes with a value no
// catalog holds, and of a URI that matches nothing.
func (pl *planner) resources(c *catalog) {
	if c.noRes != "" {
		pl.skip(LessonResourceNotFound, "", "the server offers no resources: "+c.noRes)
		return
	}
	for _, tmpl := range c.templates {
		t, err := uritemplate.New(tmpl)
		if err != nil {
			pl.skip(LessonResourceNotFound, "template "+tmpl, "the template does not parse: "+err.Error())
			continue
		}
		values := uritemplate.Values{}
		for _, name := range t.Varnames() {
			values.Set(name, uritemplate.String(absent))
		}
		uri, err := t.Expand(values)
		if err != nil {
			pl.skip(LessonResourceNotFound, "template "+tmpl, "the template does not expand: "+err.Error())
			continue
		}
		pl.add(&Probe{Lesson: LessonResourceNotFound, Target: "template " + tmpl, Row: "resource-not-found", Name: uri},
			"resources/read", map[string]any{"uri": uri})
	}
	if len(c.templates) == 0 {
		pl.skip(LessonResourceNotFound, "templates", "the server lists no resource templates")
	}
	uri := breakTag + "://absent/" + absent
	pl.add(&Probe{Lesson: LessonResourceNotFound, Target: "a URI that matches nothing", Row: "unknown-resource", Name: uri},
		"resources/read", map[string]any{"uri": uri})
}

// cancellation adds a request cancelled as soon as it is sent: with
// notifications/cancelled, or over 2026-07-28 HTTP by closing its stream.
// It cancels a list the server offers, which is answered at once: what it
// shows is that the server answers the next request. Whether a request in
// flight is stopped is recorded as not checked, with why.
func (pl *planner) cancellation(c *catalog) {
	method := pl.listMethod(c)
	p := &Probe{Lesson: LessonCancellation, Target: method}
	why := "the request cancelled is a list, which a server answers at once, so the cancellation may come after the reply"
	if pl.http && pl.s.modern {
		p.Close = true
		pl.add(p, method, nil)
		p.Short += ", its stream closed at once"
	} else {
		id := pl.s.lastID + 1
		p.Lines = [][]byte{pl.s.msg(nil, "notifications/cancelled", map[string]any{"requestId": id, "reason": "mcpc check: a cancellation"})}
		pl.add(p, method, nil)
		p.Short += ", then notifications/cancelled"
		if pl.http {
			p.Short = method + ", answered, then notifications/cancelled"
			why = "over HTTP in a session, the check posts the cancellation only once the request's response has come, so it cancels a request already answered"
		}
	}
	pl.skip(LessonCancellation, "a request in flight", why+"; a request slow enough to be stopped in flight would be a call of a real tool, which the check does not make to cancel it")
}

// listMethod returns a request every server of the session's kind answers
// with a result: a list it offers, or the era's own request.
func (pl *planner) listMethod(c *catalog) string {
	switch {
	case c.noTools == "":
		return "tools/list"
	case c.noRes == "":
		return "resources/list"
	}
	_, method, _ := pl.s.followUp()
	return method
}
