package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"html/template"
	"strconv"
	"strings"
	"unicode"

	gast "github.com/yuin/goldmark/ast"
)

// referencePage is the slug of the page that explains every row of the
// error table; the card of a row on any other page links to it.
const referencePage = "errors"

// errorRow is one row of a package's error table, as the guide shows it.
type errorRow struct {
	name    string // the kind without "err", in kebab case: unknown-tool
	code    string // the code's value, or the name of a column constant
	codeFor string // the exported constant naming the code, if any
	message string
	data    string
	legacy  string // a status, or the name of a column constant
	modern  string
	level   string // INFO, WARN, ERROR
}

// errorTable reads the error table of the Go package in dir: the variable
// errorTable, an array of rows keyed by kind constants, each row
// {code, message, data, legacy status, modern status, slog level}, as
// the core's errortable.go documents. Codes are the package's integer
// constants or a column constant (toolResult, fromHandler); statuses are
// integer literals or a column constant (noHTTP, byCode).
func (r *resolver) errorTable(dir string) ([]errorRow, error) {
	if rows, ok := r.tables[dir]; ok {
		return rows, nil
	}
	files, err := r.parsePackage(dir)
	if err != nil {
		return nil, err
	}
	consts := constants(files)
	var table *ast.CompositeLit
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) == 1 && vs.Names[0].Name == "errorTable" && len(vs.Values) == 1 {
					table, _ = vs.Values[0].(*ast.CompositeLit)
				}
			}
		}
	}
	if table == nil {
		return nil, fmt.Errorf("package %s declares no errorTable", dir)
	}
	var rows []errorRow
	for _, elt := range table.Elts {
		row, err := parseErrorRow(elt, consts)
		if err != nil {
			return nil, fmt.Errorf("package %s: errorTable: %v", dir, err)
		}
		rows = append(rows, row)
	}
	r.tables[dir] = rows
	return rows, nil
}

// parseErrorRow reads one element of an error table.
func parseErrorRow(elt ast.Expr, consts map[string]ast.Expr) (errorRow, error) {
	kv, ok := elt.(*ast.KeyValueExpr)
	key, _ := kv.Key.(*ast.Ident)
	if !ok || key == nil {
		return errorRow{}, fmt.Errorf("a row without its kind as key")
	}
	lit, ok := kv.Value.(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 6 {
		return errorRow{}, fmt.Errorf("%s: want {code, message, data, legacy, modern, level}", key.Name)
	}
	row := errorRow{name: kebab(strings.TrimPrefix(key.Name, "err"))}
	var err error
	fail := func(what string, e ast.Expr) {
		if err == nil {
			err = fmt.Errorf("%s: cannot read the %s %T", key.Name, what, e)
		}
	}
	if id, ok := lit.Elts[0].(*ast.Ident); ok {
		if n, ok := intValue(consts[id.Name]); ok && strings.HasPrefix(id.Name, "Code") {
			row.code, row.codeFor = n, id.Name
		} else {
			row.code = id.Name
		}
	} else {
		fail("code", lit.Elts[0])
	}
	for i, s := range []*string{&row.message, &row.data} {
		b, ok := lit.Elts[1+i].(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			fail("text", lit.Elts[1+i])
			continue
		}
		*s, _ = strconv.Unquote(b.Value)
	}
	for i, s := range []*string{&row.legacy, &row.modern} {
		e := lit.Elts[3+i]
		if n, ok := intValue(e); ok {
			*s = n
		} else if id, ok := e.(*ast.Ident); ok {
			*s = id.Name
		} else {
			fail("status", e)
		}
	}
	if sel, ok := lit.Elts[5].(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Level") {
		row.level = strings.ToUpper(strings.TrimPrefix(sel.Sel.Name, "Level"))
	} else {
		fail("level", lit.Elts[5])
	}
	return row, err
}

// intValue returns the text of an integer literal, negative or not.
func intValue(e ast.Expr) (string, bool) {
	neg := ""
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = "-", u.X
	}
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.INT {
		return "", false
	}
	return neg + b.Value, true
}

// kebab turns a Go name into lower-case words joined by "-", keeping
// initialisms whole: HTTPMethod is http-method, NoURI no-uri.
func kebab(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, c := range rs {
		if i > 0 && unicode.IsUpper(c) &&
			(!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// findRow returns the row called name.
func findRow(rows []errorRow, name string) (*errorRow, bool) {
	for i := range rows {
		if rows[i].name == name {
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
	if row.code == "toolResult" {
		label = r.ui["errorText"]
	}
	var b strings.Builder
	b.WriteString(`<dl class="error-row">`)
	item := func(term string, def template.HTML) {
		b.WriteString(`<dt>` + esc(term) + `</dt><dd>` + string(def) + `</dd>`)
	}
	item(r.ui["errorCode"], r.codeHTML(row))
	item(label, r.textHTML(row.message))
	item(r.ui["errorData"], r.textHTML(row.data))
	item(r.ui["errorHTTP"], r.statusHTML(row.legacy)+template.HTML(` <span class="era">`+esc(r.ui["errorLegacy"])+`</span> · `)+
		r.statusHTML(row.modern)+template.HTML(` <span class="era">`+esc(r.ui["errorModern"])+`</span>`))
	item(r.ui["errorLog"], template.HTML(`<code>`+esc(row.level)+`</code>`))
	b.WriteString(`</dl>`)
	text := strings.Join([]string{row.code, row.message, row.data}, " ")
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
	titles := make(map[string]string) // row name to its section's title
	var errs []string
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
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="table-wrap"><table class="errors"><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>`,
		esc(r.ui["errorRow"]), esc(r.ui["errorCode"]), esc(r.ui["errorMessage"]), esc(r.ui["errorData"]),
		esc(r.ui["errorHTTP"]+" "+r.ui["errorLegacy"]), esc(r.ui["errorHTTP"]+" "+r.ui["errorModern"]))
	var text []string
	for i := range rows {
		row := &rows[i]
		title, ok := titles[row.name]
		if !ok {
			errs = append(errs, fmt.Sprintf("row %s is not explained: add a heading {#%s}, then :::error %s %s and a paragraph", row.name, row.name, dir, row.name))
			continue
		}
		fmt.Fprintf(&b, `<tr><td><a href="#%s">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`,
			esc(row.name), esc(title), r.codeHTML(row), r.textHTML(row.message), r.textHTML(row.data),
			r.statusHTML(row.legacy), r.statusHTML(row.modern))
		text = append(text, title, row.message)
	}
	b.WriteString(`</tbody></table></div>` + "\n")
	if len(errs) > 0 {
		return "", "", fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return template.HTML(b.String()), strings.Join(text, " "), nil
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

// codeHTML shows a row's code: the number, or what a column constant means.
func (r *resolver) codeHTML(row *errorRow) template.HTML {
	switch row.code {
	case "toolResult":
		return template.HTML(esc(r.ui["errorToolResult"]))
	case "fromHandler":
		return template.HTML(esc(r.ui["errorFromHandler"]))
	}
	return template.HTML(`<code title="` + esc(row.codeFor) + `">` + esc(row.code) + `</code>`)
}

// statusHTML shows an HTTP status, or what a column constant means.
func (r *resolver) statusHTML(status string) template.HTML {
	switch status {
	case "noHTTP":
		return "—"
	case "byCode":
		return template.HTML(esc(r.ui["errorByCode"]))
	}
	return template.HTML(`<code>` + esc(status) + `</code>`)
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
