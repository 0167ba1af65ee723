package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
	gast "github.com/yuin/goldmark/ast"
)

// lessons is a file of lessons, such as sdks/lessons.json: for each
// lesson, one of the guide's pinned cases and the mains of each SDK module
// whose archives send the same requests, which :::sdks compares.
type lessons struct {
	// SDKs are the modules under sdksDir, in the table's order.
	SDKs    []sdkModule `json:"sdks"`
	Lessons []struct {
		// ID is the lesson's section id on the page.
		ID string `json:"id"`
		// Case is the guide's case, <chapter>/<archive>#<case> under
		// scriptsDir; each SDK's main has an archive of the same name and
		// a case of the same name.
		Case string `json:"case"`
		// Mains are the lesson's mains of each SDK, by the SDK's Dir.
		Mains map[string]lessonMains `json:"mains"`
	} `json:"lessons"`
}

// sdkModule is one SDK's module under sdksDir.
type sdkModule struct {
	Dir    string `json:"dir"`    // the module's directory under sdksDir: gosdk
	Name   string `json:"name"`   // the SDK's name, as its readers know it: go-sdk
	Module string `json:"module"` // the SDK's module path, whose version go.mod requires
}

// lessonMains are the mains of one SDK that a lesson compares with the
// guide, and why each that answers otherwise does.
type lessonMains struct {
	// Default is the main that shows the SDK's default, and Fix the one
	// that shows its way to the guide's behaviour ("" where it has none,
	// or where the lesson does not apply).
	Default string `json:"default"`
	Fix     string `json:"fix"`
	// Differs gives, by main, the one-line reason why that main does not
	// answer as the guide does: what the SDK does instead, or why it
	// cannot express the guide's rule. Every main whose cell is not "same
	// as the guide" needs one, and a main whose cell is must have none.
	Differs map[string]string `json:"differs"`
}

// sdkCell is one cell of the table :::sdks renders: what one server sends
// in one case, as a few short lines, or same when that is what the guide
// sends.
type sdkCell struct {
	lines  []string
	same   bool
	note   string // the key of a UI text shown instead: "unpinned", or "" for none
	reason string // why the main does not answer as the guide does
	// english: the page is a translation, and reason is the English one,
	// since its reasons file has none that follows it as it is.
	english bool
}

// sdkTable is what :::sdks renders: a header and a row per lesson, its
// section's title first.
type sdkTable struct {
	header []string
	rows   []sdkRow
}

// sdkRow is one lesson of an sdkTable: its section, the protocol version
// its case speaks, and its cells.
type sdkRow struct {
	id, title, version string
	guide              sdkCell
	cells              []sdkCell
}

// sdks renders the table of a lessons file: for each lesson, what the
// guide sends, then for each SDK what its default main and its fixed main
// send, each compared with the guide's pinned replies, and why a main
// answers otherwise.
func (r *resolver) sdks(n *directiveNode, file string) (template.HTML, string, error) {
	t, err := r.sdkTable(n, file)
	if err != nil {
		return "", "", err
	}
	var b, text strings.Builder
	b.WriteString(`<div class="table-wrap"><table class="sdks"><thead><tr>`)
	for _, h := range t.header {
		b.WriteString(`<th>` + esc(h) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, row := range t.rows {
		fmt.Fprintf(&b, `<tr><td><a href="#%s">%s</a>`, esc(row.id), esc(row.title))
		if row.version != "" {
			b.WriteString(`<br><code>` + esc(row.version) + `</code>`)
		}
		b.WriteString(`</td>`)
		text.WriteString(row.title + " ")
		for _, c := range append([]sdkCell{row.guide}, row.cells...) {
			var parts []string
			for _, l := range c.lines {
				parts = append(parts, `<code>`+esc(l)+`</code>`)
				text.WriteString(l + " ")
			}
			switch {
			case c.same:
				b.WriteString(`<td class="same">` + esc(r.ui["sameAsGuide"]) + `</td>`)
				continue
			case c.note != "":
				parts = append(parts, `<em>`+esc(r.ui[c.note])+`</em>`)
			case parts == nil:
				parts = []string{"—"}
			}
			switch {
			case c.english:
				parts = append(parts, `<em class="why" lang="en">`+esc(c.reason)+`</em> <span class="in-english-mark">`+esc(r.ui["inEnglish"])+`</span>`)
			case c.reason != "":
				parts = append(parts, `<em class="why">`+esc(c.reason)+`</em>`)
			}
			if c.reason != "" {
				text.WriteString(c.reason + " ")
			}
			b.WriteString(`<td>` + strings.Join(parts, `<br>`) + `</td>`)
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>` + "\n")
	return template.HTML(b.String()), text.String(), nil
}

// sdksMarkdown writes the table of a lessons file as a Markdown table.
func (r *resolver) sdksMarkdown(n *directiveNode, file string) (string, error) {
	t, err := r.sdkTable(n, file)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.header, " | ") + " |\n|" + strings.Repeat(" --- |", len(t.header)) + "\n")
	for _, row := range t.rows {
		b.WriteString("| [" + row.title + "](#" + row.id + ")")
		if row.version != "" {
			b.WriteString("<br>" + codeSpan(row.version))
		}
		for _, c := range append([]sdkCell{row.guide}, row.cells...) {
			var parts []string
			for _, l := range c.lines {
				parts = append(parts, codeSpan(l))
			}
			switch {
			case c.same:
				parts = []string{r.ui["sameAsGuide"]}
			case c.note != "":
				parts = append(parts, "*"+r.ui[c.note]+"*")
			case parts == nil:
				parts = []string{"—"}
			}
			if c.reason != "" {
				parts = append(parts, "*"+strings.ReplaceAll(c.reason, "*", `\*`)+"*")
			}
			if c.english {
				parts[len(parts)-1] += " " + r.ui["inEnglish"]
			}
			b.WriteString(" | " + strings.ReplaceAll(strings.Join(parts, "<br>"), "|", `\|`))
		}
		b.WriteString(" |\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// sdkTable reads the lessons file and the pins it names, and finds each
// lesson's section title among the headings beside n. Every cell that
// differs from the guide must have its reason in the file, and no cell
// that does not: the problems of the whole file are reported together.
func (r *resolver) sdkTable(n *directiveNode, file string) (*sdkTable, error) {
	src, err := r.readFile(file)
	if err != nil {
		return nil, err
	}
	var ls lessons
	if err := json.Unmarshal(src, &ls); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	titles := sectionTitles(n, r.src)
	t := &sdkTable{header: []string{r.ui["sdkLesson"], r.ui["sdkGuide"]}}
	for _, sdk := range ls.SDKs {
		version, err := r.requiredVersion(path.Join(sdksDir, sdk.Dir, "go.mod"), sdk.Module)
		if err != nil {
			return nil, err
		}
		err = checkVersions("the page", r.src, sdk.Name, version)
		if err == nil {
			err = checkVersions(file, src, sdk.Name, version)
		}
		if err != nil {
			return nil, fmt.Errorf("%v, which %s/%s/go.mod requires (write that version, or none)", err, sdksDir, sdk.Dir)
		}
		name := sdk.Name + " " + version
		t.header = append(t.header, name, fmt.Sprintf(r.ui["sdkFix"], name))
	}
	var unexplained []error
	for _, l := range ls.Lessons {
		title, ok := titles[l.ID]
		if !ok {
			return nil, fmt.Errorf("%s: lesson %s has no section on the page (add a heading {#%s})", file, l.ID, l.ID)
		}
		chapter, name, ok := strings.Cut(l.Case, "#")
		if !ok {
			return nil, fmt.Errorf("%s: lesson %s: case %q is not <chapter>/<archive>#<case>", file, l.ID, l.Case)
		}
		guide, err := r.loadTranscript(path.Join(scriptsDir, chapter), name)
		if err != nil {
			return nil, fmt.Errorf("%s: lesson %s: %v", file, l.ID, err)
		}
		for dir := range l.Mains {
			if !slices.ContainsFunc(ls.SDKs, func(s sdkModule) bool { return s.Dir == dir }) {
				return nil, fmt.Errorf("%s: lesson %s has mains for %q, which is not among the file's sdks (fix the name, or add the SDK)", file, l.ID, dir)
			}
		}
		row := sdkRow{id: l.ID, title: title, version: guide.protocolVersion(), guide: summarize(guide, r.ui)}
		for _, sdk := range ls.SDKs {
			m := l.Mains[sdk.Dir]
			for main := range m.Differs {
				if main == "" || main != m.Default && main != m.Fix {
					unexplained = append(unexplained, fmt.Errorf("%s: lesson %s: mains.%s.differs gives a reason for %q, which is neither the lesson's default main nor its fix (fix the name, or remove it)", file, l.ID, sdk.Dir, main))
				}
			}
			for _, main := range []string{m.Default, m.Fix} {
				c, err := r.sdkCell(guide, sdk.Dir, main, path.Base(chapter), name)
				if err != nil {
					return nil, fmt.Errorf("%s: lesson %s: %v", file, l.ID, err)
				}
				if err := explain(&c, row.guide, m, sdk.Dir, sdk.Name, main); err != nil {
					unexplained = append(unexplained, fmt.Errorf("%s: lesson %s: %v", file, l.ID, err))
				}
				if err := r.translateReason(&c, reasonKey(l.ID, sdk.Dir, main)); err != nil {
					return nil, err
				}
				row.cells = append(row.cells, c)
			}
		}
		t.rows = append(t.rows, row)
	}
	return t, errors.Join(unexplained...)
}

// explain gives c, the cell of an SDK's main, the reason that the lesson's
// mains m give for it, and reports a cell that differs from the guide's
// with no reason, or one that is the same with one, saying what to do.
func explain(c *sdkCell, guide sdkCell, m lessonMains, sdk, name, main string) error {
	reason := strings.TrimSpace(m.Differs[main])
	switch {
	case main == "":
		return nil
	case c.same && reason != "":
		return fmt.Errorf("%s's main %s answers as the guide does, yet the lesson gives a reason it differs (remove %q from its mains.%s.differs)", name, main, main, sdk)
	case c.same:
		return nil
	case reason == "":
		said := strings.Join(c.lines, " / ")
		if c.note == "unpinned" {
			said = "what varies from run to run (not pinned)"
		}
		return fmt.Errorf("%s's main %s does not answer as the guide does, and the lesson says not why: it answers %s, the guide %s "+
			"(give %s/%s/%s the chapter's rule, in %s's way, then run go generate ./...; or, if %s cannot express it, say why in one line: "+
			"\"mains\": {%q: {\"differs\": {%q: \"…\"}}})",
			name, main, said, strings.Join(guide.lines, " / "), sdksDir, sdk, main, name, name, sdk, main)
	case strings.ContainsAny(reason, "\r\n"):
		return fmt.Errorf("the reason why %s's main %s differs is more than one line (make it one)", name, main)
	}
	c.reason = reason
	return nil
}

// sdkCell compares what an SDK's main sends in a case with what the guide
// sends: the cell is same when the main answers as the guide does
// ([Transcript.SameAs]), and shows what it sent otherwise. A main of "" is
// an empty cell; a case the archive runs but does not pin (its replies
// vary from run to run) says so.
func (r *resolver) sdkCell(guide *Transcript, sdk, main, archive, name string) (sdkCell, error) {
	if main == "" {
		return sdkCell{}, nil
	}
	file := path.Join(sdksDir, sdk, scriptsDir, main, archive)
	if r.unpinned(file, name) {
		return sdkCell{note: "unpinned"}, nil
	}
	t, err := r.loadTranscript(file, name)
	if err != nil {
		return sdkCell{}, err
	}
	if !slices.Equal(t.Requests, guide.Requests) {
		return sdkCell{}, fmt.Errorf("%s sends other requests than %s in case %s (copy req/%s.jsonl from it, then run go generate ./...)", file, guide.Archive, name, name)
	}
	if t.SameAs(guide) {
		return sdkCell{same: true}, nil
	}
	return summarize(t, r.ui), nil
}

// SameAs reports whether t's server answered as guide's did: t sent
// guide's requests, every reply after the legacy handshake (whose reply
// names the server) is the same JSON value as guide's, and the exchange
// saw t's server fail in no way. It is the one judgement of the lessons,
// which the Your SDK table shows.
func (t *Transcript) SameAs(guide *Transcript) bool {
	ex, err := t.exchanges()
	want, err2 := guide.exchanges()
	if err != nil || err2 != nil || !slices.Equal(t.Requests, guide.Requests) || len(t.Outcome()) > 0 {
		return false
	}
	for i := range ex {
		if !isHandshake(ex[i].request) && !sameJSON(ex[i].reply, want[i].reply) {
			return false
		}
	}
	return true
}

// protocolVersion returns the protocol version t's requests speak: the one
// its initialize asks for, or else the one the first request that names
// one in its _meta names; "" when none does.
func (t *Transcript) protocolVersion() string {
	for _, l := range t.Requests {
		var m struct {
			Method string
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Meta            struct {
					ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
				} `json:"_meta"`
			}
		}
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		if m.Method == "initialize" {
			return m.Params.ProtocolVersion
		}
		if v := m.Params.Meta.ProtocolVersion; v != "" {
			return v
		}
	}
	return ""
}

// unpinned reports whether the archive file runs case name without
// pinning its replies: it has the case's requests but no want file.
func (r *resolver) unpinned(file, name string) bool {
	src, err := r.readFile(file)
	if err != nil {
		return false
	}
	var req, want bool
	for _, f := range txtar.Parse(src).Files {
		req = req || f.Name == "req/"+name+".jsonl"
		want = want || f.Name == "want/"+name+".jsonl"
	}
	return req && !want
}

// summarize returns what t's server sent, a line per request that it owed
// a reply, that was cancelled, or that it answered, then what the exchange saw it fail to do. The lines
// are numbered when the case sends more than one request.
func summarize(t *Transcript, ui map[string]string) sdkCell {
	ex, _ := t.exchanges()
	var c sdkCell
	var answered []exchange
	for _, e := range ex {
		if !isHandshake(e.request) && (e.owed || e.cancelled || e.reply != "") {
			answered = append(answered, e)
		}
	}
	for i, e := range answered {
		l := ui["noReplyShort"]
		if e.reply != "" {
			l = replySummary(e.reply)
		}
		if len(answered) > 1 {
			l = fmt.Sprintf("%d: %s", i+1, l)
		}
		c.lines = append(c.lines, l)
	}
	c.lines = append(c.lines, t.Outcome()...)
	return c
}

// replySummary returns a JSON-RPC reply in a few words: an error's code,
// message and data; a result's first text, after isError when it is set;
// or a result with no text as its JSON.
func replySummary(reply string) string {
	var m struct {
		Error *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	switch {
	case json.Unmarshal([]byte(reply), &m) != nil:
		return shorten(reply)
	case m.Error != nil && m.Error.Data != nil:
		return fmt.Sprintf("%d %s %s", m.Error.Code, quoteShort(m.Error.Message), shorten(string(m.Error.Data)))
	case m.Error != nil:
		return fmt.Sprintf("%d %s", m.Error.Code, quoteShort(m.Error.Message))
	case json.Unmarshal(m.Result, &res) != nil || len(res.Content) == 0:
		return shorten(string(m.Result))
	case res.IsError:
		return "isError " + quoteShort(res.Content[0].Text)
	}
	return quoteShort(res.Content[0].Text)
}

// quoteShort quotes s, shortened.
func quoteShort(s string) string { return `"` + shorten(s) + `"` }

// shorten cuts s to at most 72 characters, ending it with "…" when cut.
func shorten(s string) string {
	if rs := []rune(s); len(rs) > 72 {
		return string(rs[:71]) + "…"
	}
	return s
}

// sameJSON reports whether two replies are the same JSON value (the order
// of an object's names aside), or both are missing.
func sameJSON(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// requiredVersion returns the version of module that the go.mod file at
// name requires.
func (r *resolver) requiredVersion(name, module string) (string, error) {
	src, err := r.readFile(name)
	if err != nil {
		return "", err
	}
	for l := range strings.Lines(string(src)) {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", name, module)
}

// checkVersions reports a version of the SDK called name that prose (the
// page, or the file it names as where) names, as "<name> v1.2.3" or
// "<name> `v1.2.3`", other than version: prose that says what an SDK's
// version does must move with the pins.
func checkVersions(where string, prose []byte, name, version string) error {
	re := regexp.MustCompile(regexp.QuoteMeta(name) + " `?(v[0-9]+\\.[0-9]+\\.[0-9]+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?)")
	for _, m := range re.FindAllSubmatch(prose, -1) {
		if string(m[1]) != version {
			return fmt.Errorf("%s names %s %s, not %s", where, name, m[1], version)
		}
	}
	return nil
}

// sectionTitles returns the title of each heading with an id among the
// siblings of n, by id.
func sectionTitles(n gast.Node, src []byte) map[string]string {
	titles := make(map[string]string)
	for c := n.Parent().FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*gast.Heading); ok {
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					titles[string(b)] = plainText(h, src)
				}
			}
		}
	}
	return titles
}
