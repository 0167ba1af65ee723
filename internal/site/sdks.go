package site

import (
	"encoding/json"
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
	SDKs []struct {
		Dir    string `json:"dir"`    // the module's directory under sdksDir: gosdk
		Name   string `json:"name"`   // the SDK's name, as its readers know it: go-sdk
		Module string `json:"module"` // the SDK's module path, whose version go.mod requires
	} `json:"sdks"`
	Lessons []struct {
		// ID is the lesson's section id on the page.
		ID string `json:"id"`
		// Case is the guide's case, <chapter>/<archive>#<case> under
		// scriptsDir; each SDK's main has an archive of the same name and
		// a case of the same name.
		Case string `json:"case"`
		// Mains are, for each SDK's Dir, the main that shows the SDK's
		// default and the one that shows its way to the guide's behaviour
		// ("" where it has none, or where the lesson does not apply).
		Mains map[string]struct {
			Default string `json:"default"`
			Fix     string `json:"fix"`
		} `json:"mains"`
	} `json:"lessons"`
}

// sdkCell is one cell of the table :::sdks renders: what one server sends
// in one case, as a few short lines, or same when that is what the guide
// sends.
type sdkCell struct {
	lines []string
	same  bool
	note  string // the key of a UI text shown instead: "unpinned", or "" for none
}

// sdkTable is what :::sdks renders: a header and a row per lesson, its
// section's title first.
type sdkTable struct {
	header []string
	rows   []sdkRow
}

// sdkRow is one lesson of an sdkTable.
type sdkRow struct {
	id, title string
	guide     sdkCell
	cells     []sdkCell
}

// sdks renders the table of a lessons file: for each lesson, what the
// guide sends, then for each SDK what its default main and its fixed main
// send, each compared with the guide's pinned replies.
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
		fmt.Fprintf(&b, `<tr><td><a href="#%s">%s</a></td>`, esc(row.id), esc(row.title))
		text.WriteString(row.title + " ")
		for _, c := range append([]sdkCell{row.guide}, row.cells...) {
			if c.same {
				b.WriteString(`<td class="same">` + esc(r.ui["sameAsGuide"]) + `</td>`)
				continue
			}
			if c.lines == nil && c.note == "" {
				b.WriteString(`<td>—</td>`)
				continue
			}
			b.WriteString(`<td>`)
			for i, l := range c.lines {
				if i > 0 {
					b.WriteString(`<br>`)
				}
				b.WriteString(`<code>` + esc(l) + `</code>`)
				text.WriteString(l + " ")
			}
			if c.note != "" {
				b.WriteString(`<em>` + esc(r.ui[c.note]) + `</em>`)
			}
			b.WriteString(`</td>`)
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
			b.WriteString(" | " + strings.ReplaceAll(strings.Join(parts, "<br>"), "|", `\|`))
		}
		b.WriteString(" |\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// sdkTable reads the lessons file and the pins it names, and finds each
// lesson's section title among the headings beside n.
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
		if err := checkVersions(r.src, sdk.Name, version); err != nil {
			return nil, fmt.Errorf("%v, which %s/%s/go.mod requires (write that version, or none)", err, sdksDir, sdk.Dir)
		}
		name := sdk.Name + " " + version
		t.header = append(t.header, name, fmt.Sprintf(r.ui["sdkFix"], name))
	}
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
		row := sdkRow{id: l.ID, title: title, guide: summarize(guide, r.ui)}
		for _, sdk := range ls.SDKs {
			for _, main := range []string{l.Mains[sdk.Dir].Default, l.Mains[sdk.Dir].Fix} {
				c, err := r.sdkCell(guide, sdk.Dir, main, path.Base(chapter), name)
				if err != nil {
					return nil, fmt.Errorf("%s: lesson %s: %v", file, l.ID, err)
				}
				row.cells = append(row.cells, c)
			}
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}

// sdkCell compares what an SDK's main sends in a case with what the guide
// sends: the cell says "same" when every reply is the same JSON value and
// the server failed in no way the exchange saw, and shows what it sent
// otherwise. A main of "" is an empty cell; a case the archive runs but
// does not pin (its replies vary from run to run) says so.
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
	ex, _ := t.exchanges() // checked by loadTranscript
	want, _ := guide.exchanges()
	same := len(t.Outcome()) == 0
	for i := range ex {
		same = same && sameJSON(ex[i].reply, want[i].reply)
	}
	if same {
		return sdkCell{same: true}, nil
	}
	return summarize(t, r.ui), nil
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

// checkVersions reports a version of the SDK called name that page names,
// as "<name> v1.2.3" or "<name> `v1.2.3`", other than version: prose that
// says what an SDK's version does must move with the pins.
func checkVersions(page []byte, name, version string) error {
	re := regexp.MustCompile(regexp.QuoteMeta(name) + " `?(v[0-9]+\\.[0-9]+\\.[0-9]+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?)")
	for _, m := range re.FindAllSubmatch(page, -1) {
		if string(m[1]) != version {
			return fmt.Errorf("the page names %s %s, not %s", name, m[1], version)
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
