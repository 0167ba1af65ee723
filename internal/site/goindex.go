package site

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// goIndex is what the code-span check knows of the module's Go
// declarations: where its packages are, and, parsed on first use, what
// each declares.
type goIndex struct {
	// byName holds the package directories by package name, the last
	// element of the directory (mcp/client is client).
	byName map[string][]string
	// public lists the directories of the module's public packages: not
	// main, and not under a directory called internal.
	public []string
	// decls caches each package's declarations, by directory, with its
	// test files or without (see declKey).
	decls map[string]*pkgDecls
	// jsonNames holds the names the public packages' struct tags give
	// fields in JSON (isError, structuredContent).
	jsonNames map[string]bool
}

// pkgDecls is what one package declares.
type pkgDecls struct {
	dir   string
	names map[string]bool      // top-level funcs, types, vars and consts
	types map[string]*typeDecl // by name
}

// typeDecl is one declared type: the fields and methods it has, and the
// types of the same package it embeds, whose fields and methods it has too.
type typeDecl struct {
	members  map[string]bool
	embedded []string
}

// hasMember reports whether the type called name in p has a field or
// method called member, its own or one it embeds.
func (p *pkgDecls) hasMember(name, member string) bool {
	seen := make(map[string]bool)
	var has func(name string) bool
	has = func(name string) bool {
		t := p.types[name]
		if t == nil || seen[name] {
			return false
		}
		seen[name] = true
		return t.members[member] || slices.ContainsFunc(t.embedded, has)
	}
	return has(name)
}

// declares reports whether p declares name at top level, or as a field or
// method of one of its types.
func (p *pkgDecls) declares(name string) bool {
	if p.names[name] {
		return true
	}
	for _, t := range p.types {
		if t.members[name] {
			return true
		}
	}
	return false
}

// goIndex returns the index of the module's packages, built on first use:
// every directory of the repository that holds Go files, except testdata
// and hidden ones.
func (r *resolver) goIndex() (*goIndex, error) {
	if r.goNames != nil {
		return r.goNames, nil
	}
	ix := &goIndex{byName: make(map[string][]string), decls: make(map[string]*pkgDecls), jsonNames: make(map[string]bool)}
	hasGo := make(map[string]bool)
	err := fs.WalkDir(r.root, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := path.Base(name)
		if d.IsDir() && name != "." && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			hasGo[path.Dir(name)] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for dir := range hasGo {
		ix.byName[path.Base(dir)] = append(ix.byName[path.Base(dir)], dir)
		if slices.Contains(strings.Split(dir, "/"), "internal") {
			continue
		}
		if files, err := r.parsePackage(dir); err == nil && files[0].Name.Name != "main" {
			ix.public = append(ix.public, dir)
			for _, f := range files {
				addJSONNames(f, ix.jsonNames)
			}
		}
	}
	for _, dirs := range ix.byName {
		slices.Sort(dirs)
	}
	slices.Sort(ix.public)
	r.goNames = ix
	return ix, nil
}

// declKey is the cache key of a package's declarations.
func declKey(dir string, tests bool) string {
	if tests {
		return dir + " with tests"
	}
	return dir
}

// declarations returns what the package in dir declares, in its test files
// too if tests is set.
func (r *resolver) declarations(dir string, tests bool) (*pkgDecls, error) {
	ix, err := r.goIndex()
	if err != nil {
		return nil, err
	}
	key := declKey(dir, tests)
	if p, ok := ix.decls[key]; ok {
		return p, nil
	}
	files, err := r.parsePackage(dir)
	if err != nil {
		return nil, err
	}
	if tests {
		names, err := fs.Glob(r.root, dir+"/*_test.go")
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		files = slices.Clone(files)
		for _, name := range names {
			src, err := r.readFile(name)
			if err != nil {
				return nil, err
			}
			f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
	}
	p := &pkgDecls{dir: dir, names: make(map[string]bool), types: make(map[string]*typeDecl)}
	typ := func(name string) *typeDecl {
		if p.types[name] == nil {
			p.types[name] = &typeDecl{members: make(map[string]bool)}
		}
		return p.types[name]
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					typ(receiverName(d)).members[d.Name.Name] = true
				} else {
					p.names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.names[n.Name] = true
						}
					case *ast.TypeSpec:
						p.names[s.Name.Name] = true
						addMembers(typ(s.Name.Name), s.Type)
					}
				}
			}
		}
	}
	ix.decls[key] = p
	return p, nil
}

// addMembers adds the fields of a struct type, or the methods of an
// interface type, to t.
func addMembers(t *typeDecl, expr ast.Expr) {
	var fields *ast.FieldList
	switch e := expr.(type) {
	case *ast.StructType:
		fields = e.Fields
	case *ast.InterfaceType:
		fields = e.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			t.members[n.Name] = true
		}
		if len(f.Names) > 0 {
			continue
		}
		// An embedded field is named by its type.
		e := f.Type
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		switch e := e.(type) {
		case *ast.Ident:
			t.members[e.Name] = true
			t.embedded = append(t.embedded, e.Name)
		case *ast.SelectorExpr:
			t.members[e.Sel.Name] = true
		}
	}
}

// addJSONNames adds to names the JSON names the struct tags of f give.
func addJSONNames(f *ast.File, names map[string]bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		field, ok := n.(*ast.Field)
		if !ok || field.Tag == nil {
			return true
		}
		tag, err := strconv.Unquote(field.Tag.Value)
		if err != nil {
			return true
		}
		if name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); name != "" && name != "-" {
			names[name] = true
		}
		return true
	})
}
