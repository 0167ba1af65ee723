package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinksResolve: every lesson whose probes name no row of the error
// table links a section of the guide of its own, and every
// section a verdict links, on the guide's pages and on Your SDK, is a
// heading of the English page, so that no verdict leads nowhere.
func TestLinksResolve(t *testing.T) {
	r := &Report{Eras: []*Era{{}}}
	for _, lesson := range []string{LessonUnknownTool, LessonValidation, LessonMalformedLine, LessonUnknownMethod, LessonInvalidRequest,
		LessonBatch, LessonUnsupportedVersion, LessonResourceNotFound, LessonCancellation, LessonInternals, LessonStdout, LessonLargeArgument, LessonCall} {
		r.Eras[0].Verdicts = append(r.Eras[0].Verdicts, Verdict{Lesson: lesson})
	}
	for _, row := range []string{"unknown-tool", "invalid-arguments", "parse-error", "method-not-found", "jsonrpc-version", "bad-id",
		"batch-unsupported", "http-batch", "unsupported-version", "resource-not-found", "unknown-resource", "output-invalid"} {
		r.Eras[0].Verdicts = append(r.Eras[0].Verdicts, Verdict{Lesson: "row", Row: row})
	}
	r.Link(DefaultBaseURL, "en")
	n := 0
	for _, v := range r.Eras[0].Verdicts {
		if slices.Contains([]string{LessonCancellation, LessonInternals, LessonStdout, LessonLargeArgument}, v.Lesson) && v.Guide == "" {
			t.Errorf("lesson %s, whose probes name no row, links no section of the guide", v.Lesson)
		}
		for _, link := range []string{v.Guide, v.SDK} {
			if link == "" {
				continue
			}
			page, anchor, _ := strings.Cut(strings.TrimPrefix(link, DefaultBaseURL), ".html#")
			b, err := os.ReadFile(filepath.Join(root, "docs", page, "en.md"))
			if err != nil {
				t.Errorf("%s: %v", link, err)
				continue
			}
			if !strings.Contains(string(b), "{#"+anchor+"}") {
				t.Errorf("%s: docs/%s/en.md has no heading {#%s}", link, page, anchor)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d links checked", n)
	}
}
