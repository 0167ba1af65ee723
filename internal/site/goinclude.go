package site

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html/template"
	"strings"
)

// regionStart and regionEnd mark a region of a file that can be included
// by name: "// region: name" ... "// endregion".
const (
	regionStart = "// region: "
	regionEnd   = "// endregion"
)

// goDecls includes the named declarations of a Go file, a region of it
// ("region:name"), or, with no names, the whole file.
func (r *resolver) goDecls(file string, names []string) (template.HTML, string, error) {
	src, err := r.readFile(file)
	if err != nil {
		return "", "", err
	}
	var parts []string
	switch {
	case len(names) == 0:
		parts = []string{string(src)}
	case len(names) == 1 && strings.HasPrefix(names[0], "region:"):
		p, err := region(src, strings.TrimPrefix(names[0], "region:"))
		if err != nil {
			return "", "", fmt.Errorf("%s: %v", file, err)
		}
		parts = []string{p}
	default:
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
		if err != nil {
			return "", "", err
		}
		prevEnd := -1
		for _, name := range names {
			p, from, to, ok := declSource(fset, f, src, name)
			if !ok {
				return "", "", fmt.Errorf("%s has no declaration named %s: name a func, type, const or var it declares (a method as Type.Method), or fix the name", file, name)
			}
			if prevEnd >= 0 && (from < prevEnd || len(bytes.TrimSpace(src[prevEnd:from])) > 0) {
				parts = append(parts, elision) // the file has more between them
			}
			parts, prevEnd = append(parts, p), to
		}
	}
	code := strings.Join(parts, "\n\n")
	what := strings.Join(names, ", ")
	return figure("source", "", sourceCaption(file, what), r.highlight("go", code)), code, nil
}

// elision stands between two included declarations that are not next to
// each other in their file, so that what lies between them is not silently
// dropped.
const elision = "// ..."

// declSource returns the source of the declaration called name (Type.Method
// for a method), with its doc comment, and where it starts and ends in src. A name declared in a group, such as
// one const among several, is returned with the comment of its spec alone;
// "(Name)" returns the whole group.
func declSource(fset *token.FileSet, f *ast.File, src []byte, name string) (code string, from, to int, ok bool) {
	name, group := strings.CutPrefix(name, "(")
	if group {
		name = strings.TrimSuffix(name, ")")
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(start, end token.Pos) (string, int, int, bool) {
		return string(src[offset(start):offset(end)]), offset(start), offset(end), true
	}
	recv, fn, isMethod := strings.Cut(name, ".")
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != name && !(isMethod && d.Name.Name == fn && receiverName(d) == recv) {
				continue
			}
			if isMethod != (d.Recv != nil) {
				continue
			}
			start := d.Pos()
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			return text(start, d.End())
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if !specDeclares(s, name) {
					continue
				}
				if len(d.Specs) == 1 || group {
					start := d.Pos()
					if d.Doc != nil {
						start = d.Doc.Pos()
					}
					return text(start, d.End())
				}
				start, doc := s.Pos(), specDoc(s)
				if doc != nil {
					start = doc.Pos()
				}
				code, from, to, ok := text(start, s.End())
				return d.Tok.String() + " " + code, from, to, ok
			}
		}
	}
	return "", 0, 0, false
}

// receiverName returns the type name of a method's receiver.
func receiverName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return id.Name
		}
	case *ast.IndexListExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

func specDeclares(s ast.Spec, name string) bool {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Name.Name == name
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

func specDoc(s ast.Spec) *ast.CommentGroup {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Doc
	case *ast.ValueSpec:
		return s.Doc
	}
	return nil
}

// region returns the lines between "// region: name" and "// endregion",
// with their common indentation removed.
func region(src []byte, name string) (string, error) {
	var lines []string
	in, found := false, false
	for line := range bytes.Lines(src) {
		t := strings.TrimSpace(string(line))
		switch {
		case t == regionStart+name:
			if found {
				return "", fmt.Errorf("region %s is marked twice", name)
			}
			in, found = true, true
		case in && t == regionEnd:
			in = false
		case in:
			lines = append(lines, strings.TrimRight(string(line), "\n"))
		}
	}
	switch {
	case !found:
		return "", fmt.Errorf("no region %s: mark one with a line %q and a line %q", name, regionStart+name, regionEnd)
	case in:
		return "", fmt.Errorf("region %s has no %q", name, regionEnd)
	}
	return dedent(lines), nil
}

// dedent removes the indentation every non-blank line shares.
func dedent(lines []string) string {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
