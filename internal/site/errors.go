package site

import (
	"encoding/json"
	"fmt"
	"html/template"
	"path"
	"strconv"
	"strings"

	gast "github.com/yuin/goldmark/ast"
)

// referencePage is the slug of the page that explains every row of the
// error table; the card of a row on any other page links to it.
const referencePage = "errors"

// errorTableFile is the file, in a Go package's directory, that holds the
// package's error table as data. Package mcp's tests write it from the
// table (go generate ./...) and fail when it is stale, so the site reads
// the table without reading Go.
const errorTableFile = "errortable.json"

// errorRow is one row of a package's error table, as errorTableFile
// holds it.
type errorRow struct {
	Name     string `json:"name"`     // the kind without "err", in kebab case: unknown-tool
	Reply    string `json:"reply"`    // "error", "toolResult", "handlerError" or "none"
	Code     int    `json:"code"`     // the JSON-RPC code of an error
	CodeName string `json:"codeName"` // the constant naming it, if any
	Message  string `json:"message"`
	Data     string `json:"data"`
	// The HTTP statuses in a session and served statelessly: 0 where the
	// error cannot arise over HTTP, -1 where the status follows the code.
	Legacy int    `json:"httpLegacy"`
	Modern int    `json:"httpModern"`
	Level  string `json:"level"` // INFO, WARN, ERROR
}

// The values of errorRow.Reply.
const (
	replyError        = "error"        // a JSON-RPC error
	replyToolResult   = "toolResult"   // a tool result with isError set
	replyHandlerError = "handlerError" // a handler's own error, as it chose
	replyNone         = "none"         // nothing sent: a log line, such as a request cancelled
)

// The statuses of errorRow.Legacy and Modern that are not a status.
const (
	noHTTP = 0  // the error cannot arise over HTTP
	byCode = -1 // the status follows the code
)

// errorTable reads the error table of the Go package in dir, from its
// errorTableFile: {"rows": [...]}, each row as errorRow reads it.
func (r *resolver) errorTable(dir string) ([]errorRow, error) {
	if rows, ok := r.tables[dir]; ok {
		return rows, nil
	}
	name := path.Join(dir, errorTableFile)
	b, err := r.readFile(name)
	if err != nil {
		return nil, fmt.Errorf("package %s has no error table as data: %v (go generate ./%s writes it from the table)", dir, err, dir)
	}
	var table struct {
		Rows []errorRow `json:"rows"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		return nil, fmt.Errorf("%s: %v (go generate ./%s writes it again)", name, err, dir)
	}
	if len(table.Rows) == 0 {
		return nil, fmt.Errorf("%s has no rows", name)
	}
	for i, row := range table.Rows {
		switch {
		case row.Name == "":
			return nil, fmt.Errorf("%s: row %d has no name", name, i+1)
		case row.Reply != replyError && row.Reply != replyToolResult && row.Reply != replyHandlerError && row.Reply != replyNone:
			return nil, fmt.Errorf("%s: row %s: reply %q is none of %q, %q, %q and %q", name, row.Name, row.Reply, replyError, replyToolResult, replyHandlerError, replyNone)
		}
	}
	r.tables[dir] = table.Rows
	return table.Rows, nil
}

// findRow returns the row called name.
func findRow(rows []errorRow, name string) (*errorRow, bool) {
	for i := range rows {
		if rows[i].Name == name {
			return &rows[i], true
		}
	}
	return nil, false
}

// errorCard shows one row of the error table in dir: code, message, data,
// HTTP statuses and log level. Away from the reference page it links to
// the row's explanation there.
func (r *resolver) errorCard(dir, name string) (template.HTML, string, error) {
	rows, err := r.errorTable(dir)
	if err != nil {
		return "", "", err
	}
	row, ok := findRow(rows, name)
	if !ok {
		return "", "", fmt.Errorf("package %s's error table has no row %q", dir, name)
	}
	what := r.ui["errorRow"]
	if r.slug != referencePage {
		what = `<a href="` + esc(r.rewrite(referencePage+".html#"+name)) + `">` + esc(what) + `</a>`
	} else {
		what = esc(what)
	}
	caption := template.HTML(`<code class="path">` + esc(dir) + `</code> <span class="what">` + what +
		` <code>` + esc(name) + `</code></span>`)
	label := r.ui["errorMessage"]
	if row.Reply == replyToolResult {
		label = r.ui["errorText"]
	}
	var b strings.Builder
	b.WriteString(`<dl class="error-row">`)
	item := func(term string, def template.HTML) {
		b.WriteString(`<dt>` + esc(term) + `</dt><dd>` + string(def) + `</dd>`)
	}
	item(r.ui["errorCode"], r.codeHTML(row))
	item(label, r.textHTML(row.Message))
	item(r.ui["errorData"], r.textHTML(row.Data))
	item(r.ui["errorHTTP"], r.statusHTML(row.Legacy)+template.HTML(` <span class="era">`+esc(r.ui["errorLegacy"])+`</span> · `)+
		r.statusHTML(row.Modern)+template.HTML(` <span class="era">`+esc(r.ui["errorModern"])+`</span>`))
	item(r.ui["errorLog"], template.HTML(`<code>`+esc(row.Level)+`</code>`))
	b.WriteString(`</dl>`)
	text := strings.Join([]string{codeText(row), row.Message, row.Data}, " ")
	return figure("error-card", "", caption, template.HTML(b.String())), text, nil
}

// errorsOverview renders the whole error table in dir, one line per row
// linking to its section on the page, and checks the page against the
// table both ways: every row has a section, a heading whose id is the
// row's name followed by the row's card (":::error <dir> <name>") and a
// paragraph explaining it, and every card names a row, once.
func (r *resolver) errorsOverview(n *directiveNode, dir string) (template.HTML, string, error) {
	rows, err := r.errorTable(dir)
	if err != nil {
		return "", "", err
	}
	titles, errs := r.rowSections(n, dir)
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="table-wrap"><table class="errors"><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>`,
		esc(r.ui["errorRow"]), esc(r.ui["errorCode"]), esc(r.ui["errorMessage"]), esc(r.ui["errorData"]),
		esc(r.ui["errorHTTP"]+" "+r.ui["errorLegacy"]), esc(r.ui["errorHTTP"]+" "+r.ui["errorModern"]))
	var text []string
	for i := range rows {
		row := &rows[i]
		title, ok := titles[row.Name]
		if !ok {
			errs = append(errs, fmt.Sprintf("row %s is not explained: add a heading {#%s}, then :::error %s %s and a paragraph", row.Name, row.Name, dir, row.Name))
			continue
		}
		fmt.Fprintf(&b, `<tr><td><a href="#%s">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`,
			esc(row.Name), esc(title), r.codeHTML(row), r.textHTML(row.Message), r.textHTML(row.Data),
			r.statusHTML(row.Legacy), r.statusHTML(row.Modern))
		text = append(text, title, row.Message)
	}
	b.WriteString(`</tbody></table></div>` + "\n")
	if len(errs) > 0 {
		return "", "", fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return template.HTML(b.String()), strings.Join(text, " "), nil
}

// rowSections finds, among the siblings of the :::errors directive n, the
// section of each row of the error table in dir: its card (":::error
// <dir> <name>") right under a heading {#<name>}, followed by a paragraph.
// It returns each row's section title by the row's name, and what is
// wrong with the sections that are not so.
func (r *resolver) rowSections(n *directiveNode, dir string) (titles map[string]string, errs []string) {
	titles = make(map[string]string) // row name to its section's title
	for c := n.Parent().FirstChild(); c != nil; c = c.NextSibling() {
		d, ok := c.(*directiveNode)
		if !ok {
			continue
		}
		args, err := splitArgs(d.line)
		if err != nil || len(args) != 3 || args[0] != "error" || args[1] != dir {
			continue
		}
		name := args[2]
		var id any
		h, ok := headingBefore(c).(*gast.Heading)
		if ok {
			id, _ = h.AttributeString("id")
		}
		switch {
		case titles[name] != "":
			errs = append(errs, fmt.Sprintf("row %s has two sections", name))
		case !ok || id == nil || string(id.([]byte)) != name:
			errs = append(errs, fmt.Sprintf(":::error %s %s is not right under a heading {#%s}", dir, name, name))
		case c.NextSibling() == nil || c.NextSibling().Kind() != gast.KindParagraph:
			errs = append(errs, fmt.Sprintf("row %s has no explanation: write a paragraph after its :::error", name))
		default:
			titles[name] = plainText(h, r.src)
		}
	}
	return titles, errs
}

// headingBefore returns the node before n, past the notes and wrappers
// the generator adds to a translation's sections behind.
func headingBefore(n gast.Node) gast.Node {
	p := n.PreviousSibling()
	for {
		switch p.(type) {
		case *noteNode, *wrapNode:
			p = p.PreviousSibling()
		default:
			return p
		}
	}
}

// codeHTML shows a row's code: the number, or what a reply without one is.
func (r *resolver) codeHTML(row *errorRow) template.HTML {
	switch row.Reply {
	case replyToolResult:
		return template.HTML(esc(r.ui["errorToolResult"]))
	case replyHandlerError:
		return template.HTML(esc(r.ui["errorFromHandler"]))
	case replyNone:
		return "—"
	}
	return template.HTML(`<code title="` + esc(row.CodeName) + `">` + esc(strconv.Itoa(row.Code)) + `</code>`)
}

// codeText is a row's code for the search index: the number, or the
// reply's name.
func codeText(row *errorRow) string {
	if row.Reply == replyError {
		return strconv.Itoa(row.Code)
	}
	return row.Reply
}

// statusHTML shows an HTTP status, or what a status that is none means.
func (r *resolver) statusHTML(status int) template.HTML {
	switch status {
	case noHTTP:
		return "—"
	case byCode:
		return template.HTML(esc(r.ui["errorByCode"]))
	}
	return template.HTML(`<code>` + strconv.Itoa(status) + `</code>`)
}

// textHTML shows a message or data template, its <placeholders> marked, or
// a dash for none.
func (r *resolver) textHTML(s string) template.HTML {
	if s == "" {
		return "—"
	}
	return template.HTML(`<code>` + string(plainPlaceholders(s)) + `</code>`)
}

// plainPlaceholders escapes s and marks each <placeholder> as a variable.
func plainPlaceholders(s string) template.HTML {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		j := strings.IndexByte(s[max(i, 0):], '>')
		if i < 0 || j < 0 {
			break
		}
		b.WriteString(esc(s[:i]) + `<var>` + esc(s[i:i+j+1]) + `</var>`)
		s = s[i+j+1:]
	}
	b.WriteString(esc(s))
	return template.HTML(b.String())
}

// esc escapes text for HTML.
func esc(s string) string { return template.HTMLEscapeString(s) }
