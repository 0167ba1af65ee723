package site

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	gast "github.com/yuin/goldmark/ast"
)

// codeSpanRule says which code spans of a page name Go declarations that
// must exist. It is part of CONTRIBUTING.md's directive reference.
const codeSpanRule = "An inline code span of an English page that names a Go declaration of the module must name one that exists, " +
	"so that prose cannot drift from the code it describes. A span is read as Go when it parses as a Go expression " +
	"(`mcp.Error`, `*mcp.Error`, `Options.Observe`, `errors.Is(err, client.ErrClosed)`); in it,\n\n" +
	"- `pkg.Name`, where pkg is the name of a package of the module (the last element of its directory: `mcp`, `client` for `mcp/client`) " +
	"and Name is exported, must be declared by that package; `pkg.Type.Member` must also be a field or method of that type;\n" +
	"- `Type.Member`, where Type is an exported type of a public package of the module (not main, not under `internal/`) " +
	"or a type of a package the page includes code from, must be a field or method of that type, its own or embedded;\n" +
	"- a span that is a single lowerCamel name (`getAuthor`, `getAuthor()`), on a page that includes Go code with `:::go` or `:::example`, " +
	"must be declared (at top level, or as a field or method) by one of the packages whose files those directives name, tests included.\n\n" +
	"Everything else is not checked: names qualified by something that is not the module's (`errors.Is`, `ctx.Done()`, `data.uri`), " +
	"single words and UpperCamel names alone (`mcp`, `Observe`, Python's `ToolError`), snake_case (`get_author`), command-line flags (`-addr`), and JSON names: " +
	"a lowerCamel name that a struct tag of a public package gives a field (`isError`, `structuredContent`) or that the page shows as a JSON key " +
	"(`\"mcpServers\":` in a transcript, an included file or a code block). " +
	"To mention a lowerCamel name of another language on a page with Go code, qualify it (`window.fetch`). " +
	"Translations are not checked: their current sections keep the English code spans. " +
	"The comments of the module's Go files are held to the same rule by `go test ./internal/site -run TestDocComments`, " +
	"a comment's own package counting as the package included, and to two more: a test, benchmark, fuzz target or example named " +
	"(`TestErrorFill`, `BenchmarkFastPaths/scan`) must be a function of the module, and a lowerCamel name alone must be spelled somewhere " +
	"in the module's Go files (an identifier, a JSON name, a word of a string), or be qualified."

// spanSite is a code span of a page and the section it is in.
type spanSite struct {
	text    string
	section string
}

// spanCheck is the outcome of checking one code span: whether it was read
// as naming Go declarations of the module and checked, and if so what is
// wrong with it, if anything.
type spanCheck struct {
	checked bool
	problem string // what is wrong and how to fix it; "" if nothing
	bare    bool   // a single name, which the page's JSON keys exempt
}

// spanOK is a span checked and found.
var spanOK = spanCheck{checked: true}

// problem is a span checked and found wanting.
func problem(format string, args ...any) spanCheck {
	return spanCheck{checked: true, problem: fmt.Sprintf(format, args...)}
}

// checkCodeSpans checks the code spans of English page p that name Go
// declarations, as codeSpanRule says. It runs after p's directives are
// resolved, since the JSON keys it exempts include their text; unresolved
// says that one of them did not resolve, so that a single name it would
// have shown as a JSON key may be reported all the same: the message then
// says so.
func (r *resolver) checkCodeSpans(p *page, unresolved bool, fail func(section, msg string)) {
	err := r.codeSpans(p, func(s spanSite, c spanCheck) {
		if c.problem == "" {
			return
		}
		msg := fmt.Sprintf("code span `%s` %s", s.text, c.problem)
		if c.bare && unresolved {
			msg += " (unless a directive of this page that does not resolve shows it: fix that first)"
		}
		fail(s.section, msg)
	})
	if err != nil {
		fail(TopSection, err.Error())
	}
}

// walkSections walks the nodes of p in order, calling visit with each
// node entered and the id of the level-2 section it is in (TopSection
// before the first heading).
func walkSections(p *page, visit func(n gast.Node, section string) gast.WalkStatus) {
	section := TopSection
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*gast.Heading); ok && h.Level == 2 {
			if id, ok := h.AttributeString("id"); ok {
				section = string(id.([]byte))
			}
		}
		gast.Walk(n, func(c gast.Node, entering bool) (gast.WalkStatus, error) {
			if !entering {
				return gast.WalkContinue, nil
			}
			return visit(c, section), nil
		})
	}
}

// codeSpans checks every code span of p and calls report with each span
// and the outcome.
func (r *resolver) codeSpans(p *page, report func(spanSite, spanCheck)) error {
	src := p.src.body
	var spans []spanSite
	var included []string  // package directories the page includes Go code from
	var shown bytes.Buffer // text the page shows besides its prose, for JSON keys
	walkSections(p, func(c gast.Node, section string) gast.WalkStatus {
		switch c := c.(type) {
		case *gast.CodeSpan:
			spans = append(spans, spanSite{plainText(c, src), section})
			return gast.WalkSkipChildren
		case *directiveNode:
			shown.WriteString(c.text + "\n")
			if args, err := splitArgs(c.line); err == nil && len(args) > 1 && (args[0] == "go" || args[0] == "example") {
				if dir := path.Dir(args[1]); !slices.Contains(included, dir) {
					included = append(included, dir)
				}
			}
		case *gast.FencedCodeBlock, *gast.CodeBlock:
			for i := range c.Lines().Len() {
				seg := c.Lines().At(i)
				shown.Write(seg.Value(src))
			}
		}
		return gast.WalkContinue
	})
	ix, err := r.goIndex()
	if err != nil {
		return fmt.Errorf("%s: reading the module's packages to check code spans: %v", p.src.file, err)
	}
	keys := jsonKeys(shown.Bytes())
	for _, s := range spans {
		report(s, r.checkSpan(ix, s.text, included, keys))
	}
	return nil
}

// jsonKey matches a key of a JSON object.
var jsonKey = regexp.MustCompile(`"([A-Za-z_$][A-Za-z0-9_$]*)"\s*:`)

// jsonKeys returns the JSON object keys in b.
func jsonKeys(b []byte) map[string]bool {
	keys := make(map[string]bool)
	for _, m := range jsonKey.FindAllSubmatch(b, -1) {
		keys[string(m[1])] = true
	}
	return keys
}

// checkSpan checks one code span, which a page that includes Go code
// from the package directories included shows, and whose other text holds
// the JSON keys jsonKeys.
func (r *resolver) checkSpan(ix *goIndex, span string, included []string, jsonKeys map[string]bool) spanCheck {
	expr, err := parser.ParseExpr(span)
	if err != nil {
		return spanCheck{}
	}
	if id, ok := unwrapIdent(expr); ok {
		c := r.checkBareName(ix, id, included, jsonKeys)
		c.bare = true
		return c
	}
	var res spanCheck
	ast.Inspect(expr, func(n ast.Node) bool {
		if res.problem != "" {
			return false
		}
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		chain, ok := selectorChain(sel)
		if !ok {
			return true
		}
		if c := r.checkChain(ix, chain, included); c.checked {
			res = c
		}
		return false
	})
	return res
}

// unwrapIdent returns the identifier that expr is, under any *, & and ().
// Under a minus it is a command-line flag (-addr), not Go.
func unwrapIdent(expr ast.Expr) (string, bool) {
	for {
		switch e := expr.(type) {
		case *ast.Ident:
			return e.Name, true
		case *ast.StarExpr:
			expr = e.X
		case *ast.UnaryExpr:
			if e.Op != token.AND {
				return "", false
			}
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.CallExpr:
			if len(e.Args) > 0 {
				return "", false
			}
			expr = e.Fun
		default:
			return "", false
		}
	}
}

// selectorChain returns a.b.c as [a b c], when every part is a name.
func selectorChain(e ast.Expr) ([]string, bool) {
	switch e := e.(type) {
	case *ast.Ident:
		return []string{e.Name}, true
	case *ast.SelectorExpr:
		c, ok := selectorChain(e.X)
		return append(c, e.Sel.Name), ok
	}
	return nil, false
}

// lowerCamel reports whether name is written as an unexported Go name of
// more than one word: getAuthor, errorTable.
func lowerCamel(name string) bool {
	first, _ := utf8.DecodeRuneInString(name)
	return unicode.IsLower(first) && strings.ContainsFunc(name, unicode.IsUpper) &&
		!strings.ContainsAny(name, "_$")
}

// checkBareName checks a span that is one name.
func (r *resolver) checkBareName(ix *goIndex, name string, included []string, jsonKeys map[string]bool) spanCheck {
	if len(included) == 0 || !lowerCamel(name) || ix.jsonNames[name] || jsonKeys[name] {
		return spanCheck{}
	}
	for _, dir := range included {
		p, err := r.declarations(dir, true)
		if err != nil {
			return problem("cannot be checked: %v", err)
		}
		if p.declares(name) {
			return spanOK
		}
	}
	return problem("names nothing that %s declares, and this page includes Go code from no other package: "+
		"if it was renamed, write its new name; if it names something of another package, qualify it (pkg.Name or Type.Member); "+
		"if it is not Go, see \"Code spans\" in CONTRIBUTING.md's directive reference", strings.Join(included, " or "))
}

// checkChain checks a.b[.c]: a package name and what it declares, or a
// type and its member.
func (r *resolver) checkChain(ix *goIndex, chain []string, included []string) spanCheck {
	first, second := chain[0], chain[1]
	if dirs := ix.byName[first]; len(dirs) > 0 {
		if !ast.IsExported(second) {
			return spanCheck{} // a file name (schema.json), or nothing a reader of the package can name
		}
		var found []*pkgDecls
		for _, dir := range dirs {
			if p, err := r.declarations(dir, false); err == nil && p.names[second] {
				found = append(found, p)
			}
		}
		if len(found) == 0 {
			return problem("names nothing: package %s (%s) declares no %s; write the name it has now (go doc ./%s lists them)",
				first, strings.Join(dirs, ", "), second, dirs[0])
		}
		if len(chain) < 3 {
			return spanOK
		}
		return checkMember(found, second, chain[2])
	}
	var found []*pkgDecls
	dirs := slices.Clone(ix.public)
	for _, dir := range included {
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		p, err := r.declarations(dir, slices.Contains(included, dir))
		if err != nil || p.types[first] == nil {
			continue
		}
		if ast.IsExported(first) || slices.Contains(included, dir) {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return spanCheck{}
	}
	return checkMember(found, first, second)
}

// checkMember checks that the type called typ in one of pkgs has a field
// or method called member.
func checkMember(pkgs []*pkgDecls, typ, member string) spanCheck {
	var dirs []string
	for _, p := range pkgs {
		if p.types[typ] == nil {
			continue // not a type: a func or var, whose members are not checked
		}
		if p.hasMember(typ, member) {
			return spanOK
		}
		dirs = append(dirs, p.dir)
	}
	if len(dirs) == 0 {
		return spanCheck{} // a func or var: its members are not checked
	}
	return problem("names nothing: type %s (in %s) has no field or method %s; write the name it has now (go doc ./%s %s lists them)",
		typ, strings.Join(dirs, ", "), member, dirs[0], typ)
}
