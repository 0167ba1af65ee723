package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// pinnedRows are the lessons a pinned case of the guide or of Your SDK can
// be judged for, with the row each is judged by.
var pinnedRows = map[string]string{
	LessonValidation:       "invalid-arguments",
	LessonUnknownTool:      "unknown-tool",
	LessonResourceNotFound: "resource-not-found",
	LessonMalformedLine:    "parse-error",
}

// exitLine is the line the exchange command logs when the server exits.
var exitLine = regexp.MustCompile(`^exchange: the server exited (?:with )?(.*)$`)

// JudgePinned judges a pinned exchange (the request lines sent, the reply
// lines pinned, and the log lines, the exchange command's among them) for
// lesson, as a live check judges the same answer: the first request is
// the probe, a later one the request sent after it. It reports false for a
// lesson it cannot judge from a pin.
func JudgePinned(lesson string, requests, replies, log []string) (Verdict, bool) {
	row, ok := pinnedRows[lesson]
	if !ok || len(requests) == 0 {
		return Verdict{}, false
	}
	p := &Probe{Lesson: lesson, Row: row, Short: shorten(requests[0], 100)}
	a := &Answer{Version: "2025-11-25", Wait: "the exchange's bound"}
	var first struct {
		ID     json.RawMessage
		Params struct {
			Arguments map[string]any
			Meta      map[string]any `json:"_meta"`
		}
	}
	if json.Unmarshal([]byte(requests[0]), &first) == nil {
		p.ID = compactJSON(first.ID)
		if v, ok := first.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); ok {
			a.Version = v
		}
	} else {
		p.Settle = true
	}
	if lesson == LessonValidation {
		p.Prop = brokenProp(first.Params.Arguments)
	}
	nextID := ""
	if len(requests) > 1 {
		nextID, _ = readRequestID([]byte(requests[len(requests)-1]))
	}
	for _, r := range replies {
		a.Received = append(a.Received, texts([]byte(r))...)
		id, isResp := readResponse([]byte(r))
		switch {
		case isResp && nextID != "" && id == nextID:
			a.Next = true
		case a.Reply == nil && p.matches([]byte(r), id, isResp):
			a.Reply = json.RawMessage(r)
		}
	}
	a.Sent = texts([]byte(strings.Join(requests, "\n")))
	var stderr []string
	for _, l := range log {
		if m := exitLine.FindStringSubmatch(l); m != nil {
			a.Exit = m[1]
		} else if !strings.HasPrefix(l, "exchange: ") {
			stderr = append(stderr, l)
		}
	}
	if a.Exit != "" && len(stderr) > 0 {
		a.Exit += fmt.Sprintf("; its last lines of stderr: %s", strings.Join(stderr[max(0, len(stderr)-tailLines):], " | "))
	}
	if a.Reply == nil && a.Exit == "" {
		a.Silent = true
	}
	return Judge(p, a)[0], true
}

// brokenProp returns the property a validation case breaks: the one whose
// value is not a string, or the only one.
func brokenProp(args map[string]any) string {
	for k, v := range args {
		if _, ok := v.(string); !ok {
			return k
		}
	}
	return ""
}
