package mcp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test below reads package mcp's own source to find every call that
// fills a row of errorTable, and checks each against its row: a row's
// placeholders are filled by position, so a call with a value too few
// sends "<name>" to the client, and one with a value too many drops it,
// and neither fails to compile.

// fillMethods are errKind's methods that fill a row's placeholders: the
// methods whose receiver is the row.
var fillMethods = []string{"error", "withCause", "text"}

// TestErrorTableFills checks that every call in package mcp that fills a
// row passes as many values as the row has placeholders, and that every
// row but a handler's own error is filled somewhere.
func TestErrorTableFills(t *testing.T) {
	fset, files := parseOwnPackage(t)
	kinds, err := kindNames(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != len(errorTable) {
		t.Fatalf("found %d kinds in the source, errorTable has %d rows", len(kinds), len(errorTable))
	}
	filled, problems := checkFills(fset, files, kinds)
	for _, p := range problems {
		t.Error(p)
	}
	for k, name := range kinds {
		// A handler's own error is filled by the handler; a noReply row is
		// a log line, not filled.
		if errKind(k) != errHandlerError && errorTable[k].code != noReply && filled[errKind(k)] == 0 {
			t.Errorf("row %s is never filled: nothing sends it", name)
		}
	}
}

// parseOwnPackage parses the non-test Go files of the package in the
// current directory, package mcp.
func parseOwnPackage(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// kindNames returns the names of the kinds, in the order of their values:
// the names of the constant block that starts "errHandlerError errKind =
// iota", whose other names must have no type and no value of their own.
func kindNames(files []*ast.File) ([]string, error) {
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST || len(g.Specs) == 0 {
				continue
			}
			if typ, ok := g.Specs[0].(*ast.ValueSpec).Type.(*ast.Ident); !ok || typ.Name != "errKind" {
				continue
			}
			var names []string
			for i, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				first := i == 0 && len(vs.Values) == 1 && isIdent(vs.Values[0], "iota")
				next := i > 0 && vs.Type == nil && len(vs.Values) == 0
				if len(vs.Names) != 1 || !first && !next {
					return nil, fmt.Errorf("%s: the kinds must be one constant block, the first \"errHandlerError errKind = iota\", the others a name each",
						f.Name.Name)
				}
				names = append(names, vs.Names[0].Name)
			}
			return names, nil
		}
	}
	return nil, fmt.Errorf("no constant block of type errKind")
}

// isIdent reports whether e is the identifier name.
func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// checkFills finds every call of a fill method in files, outside errKind's
// own methods, and checks it against its row (kinds are the kinds' names,
// in the order of errorTable): the row is a kind constant, or a parameter
// of the function around the call that every caller passes a kind
// constant; error and withCause fill a row that is a JSON-RPC error, with
// a value for each distinct placeholder name of its message and data;
// text fills a tool result's text, with a value for each placeholder. It
// returns how many calls fill each row, and a problem for each call that
// fails, at its file and line.
func checkFills(fset *token.FileSet, files []*ast.File, kinds []string) (map[errKind]int, []string) {
	c := &fillChecker{fset: fset, kinds: make(map[string]errKind), funcs: make(map[string][]*ast.FuncDecl), filled: make(map[errKind]int)}
	for k, name := range kinds {
		c.kinds[name] = errKind(k)
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				c.funcs[fn.Name.Name] = append(c.funcs[fn.Name.Name], fn)
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || receiverType(fn) == "errKind" {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c.check(fn, call)
				}
				return true
			})
		}
	}
	return c.filled, c.problems
}

// fillChecker is the state of checkFills.
type fillChecker struct {
	fset     *token.FileSet
	kinds    map[string]errKind
	funcs    map[string][]*ast.FuncDecl // the package's functions and methods, by name
	filled   map[errKind]int
	problems []string
}

// check checks call, in fn, if it is a call of a fill method.
func (c *fillChecker) check(fn *ast.FuncDecl, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !slices.Contains(fillMethods, sel.Sel.Name) {
		return
	}
	method := sel.Sel.Name
	where := c.fset.Position(call.Pos())
	where.Filename = filepath.Base(where.Filename)
	fail := func(format string, args ...any) {
		c.problems = append(c.problems, fmt.Sprintf("%s: %s", where, fmt.Sprintf(format, args...)))
	}
	kinds, err := c.resolve(sel.X, fn, 0)
	if err != nil {
		fail("%s(...): %v", method, err)
		return
	}
	slices.Sort(kinds)
	kinds = slices.Compact(kinds) // a row two callers pass is checked once
	args := call.Args
	if method == "withCause" {
		if len(args) == 0 {
			fail("withCause without its cause")
			return
		}
		args = args[1:]
	}
	given, err := c.count(args, call.Ellipsis.IsValid())
	if err != nil {
		fail("%s(...): %v", method, err)
		return
	}
	for _, k := range kinds {
		c.filled[k]++
		name := c.name(k)
		row := k.row()
		var want []string
		switch {
		case row.code == fromHandler:
			fail("%s.%s: row %s is a handler's own error, which no call fills", name, method, name)
			continue
		case method == "text" && row.code != toolResult:
			fail("%s.text: row %s is a JSON-RPC error: make it with error, which fills its data too", name, name)
			continue
		case method != "text" && row.code == toolResult:
			fail("%s.%s: row %s is a tool result: make its text with text", name, method, name)
			continue
		case method == "text":
			want = placeholderNames(row.message)
		default:
			for _, n := range placeholderNames(row.message + row.data) {
				if !slices.Contains(want, n) {
					want = append(want, n)
				}
			}
		}
		if given != len(want) {
			names := "none"
			if len(want) > 0 {
				names = strings.Join(want, ", ")
			}
			fail("%s.%s passes %s; row %s has %s (%s)", name, method, plural(given, "value"), name, plural(len(want), "placeholder"), names)
		}
	}
}

// plural returns n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// name returns the name of kind k.
func (c *fillChecker) name(k errKind) string {
	for name, kind := range c.kinds {
		if kind == k {
			return name
		}
	}
	return fmt.Sprint("kind ", int(k))
}

// maxHops is how many functions resolve follows a row through, as a
// parameter passed on.
const maxHops = 4

// resolve returns the rows x can be in fn: a kind constant, or a parameter
// of fn whose callers each pass a kind constant (or a parameter of theirs,
// followed likewise).
func (c *fillChecker) resolve(x ast.Expr, fn *ast.FuncDecl, hops int) ([]errKind, error) {
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil, fmt.Errorf("cannot tell which row %s is: fill a kind constant, or a parameter given one", exprText(x))
	}
	if k, ok := c.kinds[id.Name]; ok {
		return []errKind{k}, nil
	}
	at := paramIndex(fn, id.Name)
	if at < 0 || hops == maxHops {
		return nil, fmt.Errorf("cannot tell which row %s is: fill a kind constant, or a parameter given one", id.Name)
	}
	if len(c.funcs[fn.Name.Name]) != 1 {
		return nil, fmt.Errorf("cannot tell which row %s is: %s names %d functions", id.Name, fn.Name.Name, len(c.funcs[fn.Name.Name]))
	}
	var kinds []errKind
	var err error
	callers := 0
	for _, fns := range c.funcs {
		for _, caller := range fns {
			if caller.Body == nil {
				continue
			}
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || err != nil || !calls(call, fn.Name.Name) {
					return err == nil
				}
				callers++
				if at >= len(call.Args) {
					err = fmt.Errorf("cannot tell which row %s is: a call of %s passes no argument %d", id.Name, fn.Name.Name, at+1)
					return false
				}
				var ks []errKind
				ks, err = c.resolve(call.Args[at], caller, hops+1)
				kinds = append(kinds, ks...)
				return err == nil
			})
		}
	}
	if err == nil && callers == 0 {
		err = fmt.Errorf("cannot tell which row %s is: nothing calls %s", id.Name, fn.Name.Name)
	}
	return kinds, err
}

// count returns how many values args are: one each, or as many as the one
// function call among them returns.
func (c *fillChecker) count(args []ast.Expr, spread bool) (int, error) {
	if spread {
		return 0, fmt.Errorf("spreads a slice, whose length the check cannot know: pass the values one by one")
	}
	if len(args) == 1 {
		if call, ok := args[0].(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && len(c.funcs[id.Name]) == 1 {
				if res := c.funcs[id.Name][0].Type.Results; res != nil && res.NumFields() > 1 {
					return res.NumFields(), nil
				}
			}
		}
	}
	return len(args), nil
}

// receiverType returns the name of fn's receiver type, or "".
func receiverType(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return ""
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// paramIndex returns the position of fn's parameter name, or -1.
func paramIndex(fn *ast.FuncDecl, name string) int {
	i := 0
	for _, field := range fn.Type.Params.List {
		for _, n := range field.Names {
			if n.Name == name {
				return i
			}
			i++
		}
	}
	return -1
}

// calls reports whether call calls the function or method called name.
func calls(call *ast.CallExpr, name string) bool {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name == name
	case *ast.SelectorExpr:
		return f.Sel.Name == name
	}
	return false
}

// exprText returns the source text of a simple expression, for messages.
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	case *ast.CallExpr:
		return exprText(e.Fun) + "(...)"
	}
	return fmt.Sprintf("%T", e)
}

// TestCheckFills checks the checker on calls written wrong on purpose,
// each in a file of its own, against the real table.
func TestCheckFills(t *testing.T) {
	_, own := parseOwnPackage(t)
	kinds, err := kindNames(own)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, src string
		want      string // what the one problem says, or "" for none
	}{
		{"right", `func f() { errUnknownTool.error("x") }`, ""},
		{"too few", `func f() { errHeaderMismatch.error("k", "v") }`,
			"errHeaderMismatch.error passes 2 values; row errHeaderMismatch has 3 placeholders (header, value, body)"},
		{"too many", `func f() { errNoURI.error("x") }`, "errNoURI.error passes 1 value; row errNoURI has 0 placeholders (none)"},
		{"a name twice counts once", `func f() { errUnknownResource.error("u") }`, ""},
		{"withCause without values", `func f(err error) { errResultUnencodable.withCause(err) }`, ""},
		{"withCause too many", `func f(err error) { errResourceFailed.withCause(err, "u", "v") }`,
			"errResourceFailed.withCause passes 2 values; row errResourceFailed has 1 placeholder (uri)"},
		{"text counts each placeholder", `func f() { errToolError.text("t") }`,
			"errToolError.text passes 1 value; row errToolError has 2 placeholders (name, err)"},
		{"text of an error", `func f() { errUnknownTool.text("x") }`, "row errUnknownTool is a JSON-RPC error"},
		{"error of a tool result", `func f() { errToolPanic.error("x") }`, "row errToolPanic is a tool result"},
		{"a handler's error", `func f() { errHandlerError.error("m", "d") }`, "row errHandlerError is a handler's own error"},
		{"a function's results", `func three() (a, b, c string) { return }
func f() { errMemberType.error(three()) }`, ""},
		{"a function's results, too few", `func two() (a, b string) { return }
func f() { errMemberType.error(two()) }`, "errMemberType.error passes 2 values; row errMemberType has 3"},
		{"a spread slice", `func f(v []any) { errOrigin.error(v...) }`, "spreads a slice"},
		{"a parameter given constants", `func f(k errKind) { k.text("t", "e") }
func g() { f(errToolError); f(errInvalidArguments) }`, ""},
		{"a parameter given a row of the wrong size", `func f(k errKind) { k.text("t", "e") }
func g() { f(errToolError); f(errToolPanic) }`, "errToolPanic.text passes 2 values; row errToolPanic has 1 placeholder (name)"},
		{"a parameter through a method", `type s struct{}
func (s) f(k errKind) { k.error() }
func g(x s) { x.f(errNoURI); x.f(errOrigin) }`, "errOrigin.error passes 0 values; row errOrigin has 1 placeholder (origin)"},
		{"a parameter passed on", `func f(k errKind) { k.error() }
func g(k errKind) { f(k) }
func h() { g(errNoMethod) }`, ""},
		{"a parameter given a variable", `func f(k errKind) { k.error() }
func g() { k := errNoMethod; f(k) }`, "cannot tell which row k is"},
		{"a parameter nothing calls", `func f(k errKind) { k.error() }`, "nothing calls f"},
		{"a field", `type e struct{ k errKind }
func f(x e) { x.k.error() }`, "cannot tell which row x.k is"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "case.go", "package mcp\n\n"+tt.src+"\n", parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			_, problems := checkFills(fset, []*ast.File{f}, kinds)
			switch {
			case tt.want == "" && len(problems) > 0:
				t.Errorf("problems %q, want none", problems)
			case tt.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tt.want)):
				t.Errorf("problems %q, want one saying %q", problems, tt.want)
			}
		})
	}
}

// placeholderNames returns the names of tmpl's placeholders in the order
// they appear, a name as often as it appears: "<a> or <b>, not <a>" has
// a, b and a.
func placeholderNames(tmpl string) []string {
	var names []string
	for {
		i, j := findPlaceholder(tmpl)
		if i < 0 {
			return names
		}
		names = append(names, tmpl[i+1:j-1])
		tmpl = tmpl[j:]
	}
}

func TestErrorTablefillText(t *testing.T) {
	for _, c := range []struct {
		tmpl   string
		values []string
		want   string
	}{
		{"Error executing tool <name>: <err>", []string{"t", "<x>"}, "Error executing tool t: <x>"},
		{"Error executing tool <name>", []string{"t"}, "Error executing tool t"},
		{"<a> and <b>", []string{"1"}, "1 and <b>"},
		{"no placeholder", []string{"x"}, "no placeholder"},
		{"open < only", []string{"x"}, "open < only"},
	} {
		if got := fillText(c.tmpl, c.values...); got != c.want {
			t.Errorf("fillText(%q, %q) = %q, want %q", c.tmpl, c.values, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { fillText("Error executing tool <name>: <err>", "t", "e") }); n != 1 {
		t.Errorf("FillText: %v allocations, want 1", n)
	}
}

func TestFillTemplate(t *testing.T) {
	value := func(name string) any {
		switch name {
		case "uri":
			return "a&b<c>"
		case "n":
			return 42
		}
		return []string{"x", "y"}
	}
	for _, c := range []struct {
		tmpl   string
		asJSON bool
		want   string
	}{
		{"Unknown resource: <uri>", false, "Unknown resource: a&b<c>"},
		{"<n> bytes", false, "42 bytes"},
		{`{"uri":<uri>,"n":<n>,"list":<list>}`, true, `{"uri":"a&b<c>","n":42,"list":["x","y"]}`},
	} {
		if got := fillTemplate(c.tmpl, value, c.asJSON); got != c.want {
			t.Errorf("fillTemplate(%q, %v) = %q, want %q", c.tmpl, c.asJSON, got, c.want)
		}
	}
}

func TestPlaceholderNames(t *testing.T) {
	for tmpl, want := range map[string][]string{
		"Error executing tool <name>: <err>": {"name", "err"},
		`{"uri":<uri>}`:                      {"uri"},
		"<a> or <b>, not <a>":                {"a", "b", "a"},
		"open < only":                        nil,
		"none":                               nil,
	} {
		if got := placeholderNames(tmpl); !slices.Equal(got, want) {
			t.Errorf("placeholderNames(%q) = %q, want %q", tmpl, got, want)
		}
	}
}
