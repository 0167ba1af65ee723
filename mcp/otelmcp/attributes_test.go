package otelmcp

import (
	"maps"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// A call that succeeds has the attributes the conventions give a server
// span and the duration, no error.type, and an unset status.
func TestSuccessAttributes(t *testing.T) {
	tel := newTelemetry(t)
	c := serveStdio(t, newServer(tel.recorder(t, Options{}).Observe, nil))
	mcptest.DecodeReply(t, c.call(mcptest.ToolCall(`"a-1"`, "echo", `{"text":"hi"}`)))
	sp := tel.oneSpan(t, "echo")
	want := map[attribute.Key]string{
		MethodNameKey:       "tools/call",
		OperationNameKey:    "execute_tool",
		ToolNameKey:         "echo",
		ProtocolVersionKey:  mcp.ModernVersion,
		NetworkTransportKey: "pipe",
		JSONRPCRequestIDKey: "a-1",
	}
	if got := attrs(sp.Attributes); !maps.Equal(got, want) || sp.Name != "tools/call echo" || sp.Status.Code != codes.Unset {
		t.Errorf("span %q, status %v, attributes %v; want %q, unset, %v", sp.Name, sp.Status.Code, got, "tools/call echo", want)
	}
	mcptest.DecodeReply(t, c.call(mcptest.Request("7", "tools/list", "")))
	if got := attrs(tel.oneSpan(t, "list").Attributes); got[JSONRPCRequestIDKey] != "7" || got[ToolNameKey] != "" || got[OperationNameKey] != "" {
		t.Errorf("tools/list: attributes %v, want request id 7 and no tool", got)
	}

	points, _ := tel.durations(t)
	delete(want, JSONRPCRequestIDKey) // one value per request: not on a metric
	found := false
	for _, p := range points {
		got := attrs(p.Attributes.ToSlice())
		if got[MethodNameKey] == "tools/call" {
			found = maps.Equal(got, want) && p.Count == 1 && p.Sum > 0
			if !found {
				t.Errorf("the call's duration: %v, count %d, sum %v; want %v, one, above 0", got, p.Count, p.Sum, want)
			}
		}
	}
	if !found {
		t.Error("no point of the duration for the call")
	}
}

// By default nothing sensitive is recorded where the conventions advise
// against it: no argument or result anywhere, no URI in a span's name or
// on the metric; the URI of a resources/read is only its span's
// mcp.resource.uri. The options put the URI in the name and on the metric.
func TestNothingSensitiveByDefault(t *testing.T) {
	const arg, uri = "s3cret-argument", "shelf://s3cret-shelf"
	for _, opts := range []Options{{}, {URIInSpanName: true, URIInMetrics: true}} {
		tel := newTelemetry(t)
		c := serveStdio(t, newServer(tel.recorder(t, opts).Observe, nil))
		mcptest.DecodeReply(t, c.call(mcptest.ToolCall("1", "echo", `{"text":"`+arg+`"}`)))
		mcptest.DecodeReply(t, c.call(mcptest.ReadCall("2", uri)))
		spans := tel.takeSpans()
		if len(spans) != 2 {
			t.Fatalf("%+v: %d spans, want 2", opts, len(spans))
		}
		for _, sp := range spans {
			var texts []string
			texts = append(texts, sp.Name, sp.Status.Description)
			for k, v := range attrs(sp.Attributes) {
				if k != ResourceURIKey {
					texts = append(texts, string(k)+"="+v)
				}
			}
			for _, ev := range sp.Events {
				texts = append(texts, ev.Name)
				for k, v := range attrs(ev.Attributes) {
					texts = append(texts, string(k)+"="+v)
				}
			}
			all := strings.Join(texts, " ")
			if strings.Contains(all, arg) {
				t.Errorf("%+v: span %q records the argument: %s", opts, sp.Name, all)
			}
			if strings.Contains(all, uri) != (opts.URIInSpanName && sp.Name == "resources/read "+uri) {
				t.Errorf("%+v: span %q: the URI in %s", opts, sp.Name, all)
			}
			if got := attrs(sp.Attributes)[ResourceURIKey]; got != "" && got != uri {
				t.Errorf("%+v: mcp.resource.uri %q, want %q", opts, got, uri)
			}
		}
		if attrs(spans[1].Attributes)[ResourceURIKey] != uri {
			t.Errorf("%+v: span %q has no mcp.resource.uri %q", opts, spans[1].Name, uri)
		}
		points, _ := tel.durations(t)
		uris := 0
		for _, p := range points {
			for k, v := range attrs(p.Attributes.ToSlice()) {
				if strings.Contains(v, arg) || (strings.Contains(v, uri) && (!opts.URIInMetrics || k != ResourceURIKey)) {
					t.Errorf("%+v: the metric records %s=%s", opts, k, v)
				}
				if k == ResourceURIKey {
					uris++
				}
			}
		}
		if want := map[bool]int{false: 0, true: 1}[opts.URIInMetrics]; uris != want {
			t.Errorf("%+v: %d points with mcp.resource.uri, want %d", opts, uris, want)
		}
	}
}

// With RecordCauses, a failed request's span has an "exception" event with
// the cause the server withheld, and a panic's stack; without, none.
func TestRecordCauses(t *testing.T) {
	for _, record := range []bool{false, true} {
		tel := newTelemetry(t)
		c := serveStdio(t, newServer(tel.recorder(t, Options{RecordCauses: record}).Observe, nil))
		for _, tt := range []struct{ line, message, stack string }{
			{mcptest.ToolCall("1", "internal", "{}"), `relation "stock" does not exist`, ""},
			{mcptest.ToolCall("2", "first", "{}"), "index out of range", "goroutine"},
			{mcptest.ReadCall("3", "shelf://locked"), "the shelf is locked", ""},
			{mcptest.ToolCall("4", "echo", `{"text":"hi"}`), "", ""},
		} {
			c.call(tt.line)
			sp := tel.oneSpan(t, tt.line)
			if !record || tt.message == "" {
				if len(sp.Events) != 0 {
					t.Errorf("RecordCauses %v: span %q has events %v, want none", record, sp.Name, sp.Events)
				}
				continue
			}
			if len(sp.Events) != 1 || sp.Events[0].Name != "exception" {
				t.Fatalf("span %q has events %v, want one exception", sp.Name, sp.Events)
			}
			a := attrs(sp.Events[0].Attributes)
			if !strings.Contains(a["exception.message"], tt.message) || !strings.Contains(a["exception.stacktrace"], tt.stack) {
				t.Errorf("span %q: exception %v, want the message %q and a stack holding %q", sp.Name, a, tt.message, tt.stack)
			}
			if strings.Contains(sp.Status.Description, `relation "stock"`) {
				t.Errorf("span %q: the withheld cause is in the status %q", sp.Name, sp.Status.Description)
			}
		}
	}
}
