package site

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html/template"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// placeholder matches a part of an error text that varies: <name>, <uri>,
// or "<name>" where the code quotes it with %q.
var placeholder = regexp.MustCompile(`"?<[a-z][a-z ._-]*>"?`)

// message shows an error text, given in parts that are shown joined, and
// checks that the package in dir can still produce it: each literal part of
// each part must occur in one of the package's string constants. An error
// wrapped with %w is given in two parts, the wrapped error's text and the
// wrapper's.
func (r *resolver) message(dir string, parts []string) (template.HTML, string, error) {
	lits, err := r.packageLiterals(dir)
	if err != nil {
		return "", "", err
	}
	text := strings.Join(parts, "")
	var fragments []string
	for _, p := range parts {
		fragments = append(fragments, placeholder.Split(p, -1)...)
	}
	for _, part := range fragments {
		if !strings.ContainsFunc(part, unicode.IsLetter) {
			continue
		}
		if !slices.ContainsFunc(lits, func(l string) bool { return strings.Contains(l, part) }) {
			return "", "", fmt.Errorf("package %s no longer produces %q (no string in it contains %q)", dir, text, part)
		}
	}
	return figure("message", "", sourceCaption(dir, r.ui["producedBy"]), plain(text)), text, nil
}

// packageLiterals returns the string constants of the Go package in dir (its
// non-test files): every string literal, and every constant expression made
// of literals and named constants joined by +.
func (r *resolver) packageLiterals(dir string) ([]string, error) {
	if lits, ok := r.literals[dir]; ok {
		return lits, nil
	}
	files, err := r.parsePackage(dir)
	if err != nil {
		return nil, err
	}
	consts := constants(files)
	var eval func(e ast.Expr, depth int) (string, bool)
	eval = func(e ast.Expr, depth int) (string, bool) {
		if depth > len(consts)+1 {
			return "", false
		}
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.STRING {
				s, err := strconv.Unquote(e.Value)
				return s, err == nil
			}
		case *ast.Ident:
			if c, ok := consts[e.Name]; ok {
				return eval(c, depth+1)
			}
		case *ast.ParenExpr:
			return eval(e.X, depth)
		case *ast.BinaryExpr:
			if e.Op == token.ADD {
				x, okx := eval(e.X, depth)
				y, oky := eval(e.Y, depth)
				return x + y, okx && oky
			}
		}
		return "", false
	}
	var lits []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit, *ast.BinaryExpr, *ast.Ident:
				if s, ok := eval(n.(ast.Expr), 0); ok && s != "" {
					lits = append(lits, s)
				}
			}
			return true
		})
	}
	r.literals[dir] = lits
	return lits, nil
}

// parsePackage parses the non-test Go files of the package in dir, once.
func (r *resolver) parsePackage(dir string) ([]*ast.File, error) {
	if files, ok := r.packages[dir]; ok {
		return files, nil
	}
	names, err := fs.Glob(r.root, dir+"/*.go")
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := r.readFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go package in %s", dir)
	}
	r.packages[dir] = files
	return files, nil
}

// constants returns the value of every constant the files declare, by name.
func constants(files []*ast.File) map[string]ast.Expr {
	consts := make(map[string]ast.Expr)
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	return consts
}
