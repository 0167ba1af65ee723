package check

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// DefaultBaseURL is where the guide is published: the default of the
// docs build's -base-url.
const DefaultBaseURL = "https://mcpbookshop.github.io/guide/"

// yourSDK are the lessons Your SDK has a section for, by id.
var yourSDK = map[string]string{
	LessonUnknownTool: "unknown-tool", LessonValidation: "validation", LessonMalformedLine: "malformed-line",
	LessonResourceNotFound: "resource-not-found", LessonCancellation: "cancellation", LessonInternals: "panic",
	LessonCall: "output-invalid",
}

// section returns the page and anchor of the guide's section that explains
// v: its row on the page of errors, or for a lesson no row covers, a
// chapter's section.
func section(v *Verdict) string {
	switch {
	case v.Lesson == LessonCancellation:
		return "handler-failures.html#cancellation"
	case v.Lesson == LessonInternals:
		return "handler-failures.html#panic"
	case v.Lesson == LessonStdout:
		return "troubleshooting.html#not-jsonrpc"
	case v.Lesson == LessonLargeArgument:
		return "tool-errors.html#bounds"
	case v.Row != "":
		return "errors.html#" + v.Row
	}
	return ""
}

// Link sets each verdict's Guide and SDK addresses, under base (ending in
// "/"), in the language lang ("en" at the top, the others in a folder of
// their own, as the site is built).
func (r *Report) Link(base, lang string) {
	prefix := base
	if lang != "" && lang != "en" {
		prefix += lang + "/"
	}
	for _, e := range r.Eras {
		for i := range e.Verdicts {
			v := &e.Verdicts[i]
			if s := section(v); s != "" {
				v.Guide = prefix + s
			}
			if a, ok := yourSDK[v.Lesson]; ok {
				v.SDK = prefix + "your-sdk.html#" + a
			}
		}
	}
}

// Counts returns how many verdicts of each kind the report holds.
func (r *Report) Counts() [NotChecked + 1]int {
	var n [NotChecked + 1]int
	for _, e := range r.Eras {
		for _, v := range e.Verdicts {
			n[v.Kind]++
		}
	}
	return n
}

// WriteText writes the report as mcpc check prints it: for each era a
// heading, then each verdict with the request and reply in one short form,
// the spec's sentence or the detail, and the links; then the counts.
func (r *Report) WriteText(w io.Writer) {
	for _, e := range r.Eras {
		fmt.Fprintf(w, "== %s over %s ==\n", e.Version, e.Transport)
		for _, v := range e.Verdicts {
			fmt.Fprintf(w, "%s · %s", v.Kind, v.Lesson)
			if v.Target != "" {
				fmt.Fprintf(w, " · %s", v.Target)
			}
			fmt.Fprintln(w)
			if v.Request != "" {
				fmt.Fprintf(w, "  → %s\n  ← %s\n", v.Request, v.Reply)
			}
			if v.Detail != "" {
				fmt.Fprintf(w, "  %s\n", v.Detail)
			}
			if v.Quote != nil {
				fmt.Fprintf(w, "  %q (%s)\n", v.Quote.Text, v.Quote.Source)
			}
			var links []string
			if v.Guide != "" {
				links = append(links, "guide: "+v.Guide)
			}
			if v.SDK != "" {
				links = append(links, "your SDK: "+v.SDK)
			}
			if len(links) > 0 {
				fmt.Fprintf(w, "  %s\n", strings.Join(links, " · "))
			}
		}
		fmt.Fprintln(w)
	}
	n := r.Counts()
	var parts []string
	for k, c := range n {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, Kind(k)))
		}
	}
	fmt.Fprintf(w, "%s\n", strings.Join(parts, ", "))
}

// WritePlan writes what a dry run would send: every probe's messages, as
// sent, era by era.
func (r *Report) WritePlan(w io.Writer) {
	for _, e := range r.Eras {
		fmt.Fprintf(w, "== %s over %s: %d probes, none sent ==\n", e.Version, e.Transport, len(e.Probes))
		for _, p := range e.Probes {
			fmt.Fprintf(w, "%s · %s\n", p.Lesson, p.Target)
			for _, m := range p.Lines {
				fmt.Fprintf(w, "  %s\n", m)
			}
		}
	}
	fmt.Fprintln(w, "Each probe is followed by a request the server answers at once (server/discover, or ping), which settles whether a reply will come.")
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	e.SetEscapeHTML(false)
	return e.Encode(r)
}

// WriteJUnit writes the report as JUnit XML, which CI systems show: a
// suite per era, a case per verdict, failing for a MUST or a leak,
// skipped when not checked.
func (r *Report) WriteJUnit(w io.Writer) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *failure `xml:"skipped,omitempty"`
		Output    string   `xml:"system-out,omitempty"`
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	var suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}
	for _, e := range r.Eras {
		s := suite{Name: fmt.Sprintf("mcpc check %s over %s", e.Version, e.Transport)}
		for _, v := range e.Verdicts {
			c := testcase{Name: v.Lesson, Classname: "mcpc check." + e.Version + "." + e.Transport}
			if v.Target != "" {
				c.Name += ": " + v.Target
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s\n→ %s\n← %s\n%s\n", v.Kind, v.Request, v.Reply, v.Detail)
			if v.Quote != nil {
				fmt.Fprintf(&b, "%q (%s)\n", v.Quote.Text, v.Quote.Source)
			}
			if v.Guide != "" {
				fmt.Fprintf(&b, "guide: %s\n", v.Guide)
			}
			if v.SDK != "" {
				fmt.Fprintf(&b, "your SDK: %s\n", v.SDK)
			}
			switch {
			case v.Kind.Fails():
				c.Failure = &failure{Message: v.Kind.String() + ": " + v.Detail, Text: b.String()}
				s.Failures++
			case v.Kind == NotChecked:
				c.Skipped = &failure{Message: v.Detail}
				s.Skipped++
			default:
				c.Output = b.String()
			}
			s.Cases = append(s.Cases, c)
			s.Tests++
		}
		suites.Suites = append(suites.Suites, s)
	}
	io.WriteString(w, xml.Header)
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(suites); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
