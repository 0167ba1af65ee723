package check

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestLateReply: a reply that comes after the check gave up on its request
// answers nothing else. The late replier answers each call of its slow tool
// only once the check cancelled it, just before the next probe's answer;
// the probe sent next, the line that is not JSON among them, is judged by
// its own reply, -32700 with the id null, as the guide answers it, and
// the late reply is noted.
func TestLateReply(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r, err := Run(ctx, &Config{Command: []string{os.Args[0], "late-replier"}, Wait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Eras) != 1 {
		t.Fatalf("got %d eras, want 1 (2026-07-28)", len(r.Eras))
	}
	seen := map[string]bool{}
	for _, v := range r.Eras[0].Verdicts {
		seen[v.Lesson] = true
		if strings.Contains(v.Reply, "context canceled") {
			t.Errorf("%s: judged by a late reply: %v (%s), reply %s", verdictKey(v), v.Kind, v.Detail, v.Reply)
		}
		switch v.Lesson {
		case LessonMalformedLine:
			if v.Kind != AsGuide || !strings.Contains(v.Reply, "-32700") {
				t.Errorf("%s: %v (%s), reply %s; want as the guide, by its own -32700", verdictKey(v), v.Kind, v.Detail, v.Reply)
			}
			if !strings.Contains(v.Detail, "a late reply to an earlier request (id ") {
				t.Errorf("%s: %q does not note the late reply that came while it was pending", verdictKey(v), v.Detail)
			}
		case LessonValidation:
			if v.Kind != NotChecked {
				t.Errorf("%s: %v (%s); want not checked, as no reply came within the bound", verdictKey(v), v.Kind, v.Detail)
			}
		}
	}
	if !seen[LessonMalformedLine] || !seen[LessonValidation] {
		t.Errorf("lessons judged: %v; want validation and malformed-line among them", seen)
	}
	if t.Failed() {
		r.WriteText(testWriter{t})
	}
}
