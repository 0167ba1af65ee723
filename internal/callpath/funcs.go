package callpath

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A Function is a function declaration or a func literal (a closure) of
// the module, with the source range of its body.
type Function struct {
	Pkg  string // import path
	File string // file name, without the directory
	Name string // as a stack trace shows it, without the package: (*Server).callTool, (*Server).callTool.func1
	Line int    // of the func keyword
	Decl bool   // a declaration, not a func literal
	// Var is, for a func literal at package level, the name of the var
	// whose initializer holds it (bufPool for sync.Pool{New: func...}).
	Var string

	// Top is the declaration the function is, or the one whose body holds
	// the func literal; for a func literal at package level, the literal.
	Top *Function

	// start and end are the body's braces.
	start, end token.Position
}

// index finds the innermost function holding each covered block, reading
// each source file once.
type index struct {
	mod   Module
	files map[string][]*Function // by the profile's file name
	glob  map[string]int         // package-level func literals numbered so far, by package
}

func newIndex(m Module) *index {
	return &index{mod: m, files: make(map[string][]*Function), glob: make(map[string]int)}
}

// load reads the functions of the files that blocks name, in the order of
// their names, so that package-level func literals are numbered the same
// way whichever profile names a file first.
func (x *index) load(blocks ...[]block) error {
	var names []string
	for _, bs := range blocks {
		for _, b := range bs {
			if _, ok := x.files[b.File]; !ok {
				x.files[b.File] = nil
				names = append(names, b.File)
			}
		}
	}
	slices.Sort(names)
	for _, name := range names {
		fns, err := x.parse(name)
		if err != nil {
			return err
		}
		x.files[name] = fns
	}
	return nil
}

// functionOf returns the innermost function whose body holds b's start;
// load must have read b's file.
func (x *index) functionOf(b block) (*Function, error) {
	var inner *Function
	for _, f := range x.files[b.File] {
		if within(b.StartLine, b.StartCol, f.start, f.end) && (inner == nil || before(inner.start, f.start)) {
			inner = f
		}
	}
	if inner == nil {
		return nil, fmt.Errorf("%s:%d.%d: a covered block in no function body the source declares; is the source newer than the binary?", b.File, b.StartLine, b.StartCol)
	}
	return inner, nil
}

// within reports whether line.col lies between the braces start and end.
func within(line, col int, start, end token.Position) bool {
	return !before(token.Position{Line: line, Column: col}, start) && !before(end, token.Position{Line: line, Column: col})
}

// before reports whether a comes before b in a file.
func before(a, b token.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}

// parse reads the source of name, a file as a coverage profile names it
// (import path/file.go), and returns its functions.
func (x *index) parse(name string) ([]*Function, error) {
	rel, ok := strings.CutPrefix(name, x.mod.Path+"/")
	if !ok {
		return nil, fmt.Errorf("%s: the coverage profile names a file outside module %s", name, x.mod.Path)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filepath.Join(x.mod.Dir, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("reading the functions of %s: %v", name, err)
	}
	pkg, base := path.Dir(name), path.Base(name)
	var fns []*Function
	add := func(name string, top *Function, pos token.Pos, body *ast.BlockStmt) *Function {
		f := &Function{Pkg: pkg, File: base, Name: name, Top: top, Line: fset.Position(pos).Line, Decl: top == nil,
			start: fset.Position(body.Lbrace), end: fset.Position(body.Rbrace)}
		if f.Top == nil {
			f.Top = f
		}
		fns = append(fns, f)
		return f
	}
	// literals adds the func literals under n, numbered as the compiler
	// names them: parent.func1, parent.func2 in a declaration,
	// parent.1, parent.2 in a literal.
	var literals func(n ast.Node, parent *Function, prefix string)
	literals = func(n ast.Node, parent *Function, prefix string) {
		count := 0
		ast.Inspect(n, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			count++
			f := add(prefix+strconv.Itoa(count), parent.Top, lit.Type.Func, lit.Body)
			literals(lit.Body, f, f.Name+".")
			return false
		})
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue // declared in assembly
			}
			f := add(declName(d), nil, d.Type.Func, d.Body)
			literals(d.Body, f, f.Name+".func")
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				v, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, value := range v.Values {
					name := v.Names[min(i, len(v.Names)-1)].Name // var a, b = f() gives both one value
					ast.Inspect(value, func(n ast.Node) bool {
						lit, ok := n.(*ast.FuncLit)
						if !ok {
							return true
						}
						x.glob[pkg]++
						f := add("init.func"+strconv.Itoa(x.glob[pkg]), nil, lit.Type.Func, lit.Body)
						f.Decl, f.Var = false, name
						literals(lit.Body, f, f.Name+".")
						return false
					})
				}
			}
		}
	}
	return fns, nil
}

// declName names a function declaration as a stack trace does: F, T.M,
// (*T).M, with [...] for type parameters.
func declName(d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Type.TypeParams != nil {
		name += "[...]"
	}
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return name
	}
	t := d.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	generic := false
	switch g := t.(type) {
	case *ast.IndexExpr:
		t, generic = g.X, true
	case *ast.IndexListExpr:
		t, generic = g.X, true
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if generic {
		recv += "[...]"
	}
	if star {
		return "(*" + recv + ")." + name
	}
	return recv + "." + name
}

// sortFunctions orders fns by package, file and line.
func sortFunctions(fns []*Function) {
	slices.SortFunc(fns, func(a, b *Function) int {
		if c := strings.Compare(a.Pkg, b.Pkg); c != 0 {
			return c
		}
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Name, b.Name)
	})
}
