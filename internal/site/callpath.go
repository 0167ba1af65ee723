package site

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html/template"
	"path"
	"slices"
	"strings"

	"github.com/mcpbookshop/guide/internal/callpath"
	gast "github.com/yuin/goldmark/ast"
)

// A page that walks calls through the core names them with :::callpath,
// and is then held to the path internal/callpath measures and go generate
// pins (callpath.PinFile): every function a walked call runs beyond what
// every session runs is shown with :::go or named on an :::also line, and
// every function those lines name still runs. checkWalk says how.

// pin reads a pin of the repository once.
func (r *resolver) pin(file string) (*callpath.Pin, error) {
	if p, ok := r.pins[file]; ok {
		return p, nil
	}
	p, err := callpath.ReadPin(r.root, file)
	if err != nil {
		return nil, err
	}
	r.pins[file] = p
	return p, nil
}

// callpathFigure renders the numbers of the pinned cases: for each, what
// it sends and how many functions, files and packages it runs; then the
// core's code lines, counted now. Like a command's output, it stays in
// English.
func (r *resolver) callpathFigure(file string, cases []string) (template.HTML, string, error) {
	p, err := r.pin(file)
	if err != nil {
		return "", "", err
	}
	var rows [][2]string
	width := 0
	for _, name := range cases {
		c, _ := p.Case(name)
		if c == nil {
			return "", "", fmt.Errorf("%s pins no case %s; its cases are %s", file, name, strings.Join(p.CaseNames(), ", "))
		}
		a, b := callpath.CountFuncs(c.Functions), callpath.CountFuncs(c.WithClosures)
		rows = append(rows, [2]string{name, fmt.Sprintf("%s\n  %s in %s, %s; %d with closures",
			describeRequest(c.Request), count(a.Functions, "function"), count(a.Files, "file"), count(a.Packages, "package"), b.Functions)})
		width = max(width, len(name))
	}
	lines, err := callpath.CodeLines(r.root, p.Core)
	if err != nil {
		return "", "", fmt.Errorf("counting the core's code lines: %v", err)
	}
	var b strings.Builder
	for _, row := range rows {
		fmt.Fprintf(&b, "%-*s  %s\n", width, row[0], strings.ReplaceAll(row[1], "\n", "\n"+strings.Repeat(" ", width)))
	}
	fmt.Fprintf(&b, "\nthe core: %s in %s of %s,\n  %s; tests and comments left out\n",
		count(lines.Lines, "code line"), count(lines.Files, "file"), count(lines.Packages, "package"), wrapList(p.Core, 64, "\n  "))
	fmt.Fprintf(&b, "the cap on a success: %d functions in %d files, %d packages\n", callpath.Cap.Functions, callpath.Cap.Files, callpath.Cap.Packages)
	text := b.String()
	return figure("source callpath", "", sourceCaption(file, "go generate ./..."), r.highlight("text", text)), text, nil
}

// wrapList joins items with ", ", starting a new line, with sep, before an
// item that would take a line past width bytes, so that the figure fits the
// page's code column.
func wrapList(items []string, width int, sep string) string {
	var b strings.Builder
	line := 0
	for i, item := range items {
		if i > 0 {
			if line+2+len(item) > width {
				b.WriteString("," + sep)
				line = 0
			} else {
				b.WriteString(", ")
				line += 2
			}
		}
		b.WriteString(item)
		line += len(item)
	}
	return b.String()
}

// count writes n things, in the plural unless n is 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// describeRequest says what a pinned request sends: its method and the
// tool and arguments, or the URI.
func describeRequest(line string) string {
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			URI       string          `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(line), &req) != nil {
		return line
	}
	return strings.Join(strings.Fields(req.Method+" "+req.Params.Name+" "+string(req.Params.Arguments)+" "+req.Params.URI), " ")
}

// also renders an :::also line: the signature and doc comment of each
// function named, its body left out.
func (r *resolver) also(file string, names []string) (template.HTML, string, error) {
	src, err := r.readFile(file)
	if err != nil {
		return "", "", err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", "", err
	}
	var parts []string
	for _, name := range names {
		d := findFunc(f, name)
		if d == nil {
			return "", "", fmt.Errorf("%s declares no function %s: name one as :::go does (Type.Method for a method)", file, name)
		}
		start := d.Pos()
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
		parts = append(parts, string(src[fset.Position(start).Offset:fset.Position(d.Body.Lbrace).Offset])+"{ … }")
	}
	code := strings.Join(parts, "\n\n")
	return figure("source also", "", sourceCaption(file, r.ui["alsoRuns"]+": "+strings.Join(names, ", ")), r.highlight("go", code)), code, nil
}

// findFunc returns the function declaration of f called name, as :::go
// names it (Type.Method for a method), or nil.
func findFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && funcName(fd) == name {
			return fd
		}
	}
	return nil
}

// funcName names a function declaration as :::go does.
func funcName(d *ast.FuncDecl) string {
	if d.Recv != nil {
		return receiverName(d) + "." + d.Name.Name
	}
	return d.Name.Name
}

// walkLine is a :::go or :::also line of a walk page, and the section it
// is in.
type walkLine struct {
	kind, file string
	names      []string
	section    string
}

// checkWalk holds an English page with :::callpath lines to the pin they
// name, as the directive's help says, calling fail with each problem and
// the section it is in.
func (r *resolver) checkWalk(p *page, fail func(section, msg string)) {
	var walks, lines []walkLine
	walkSections(p, func(c gast.Node, section string) gast.WalkStatus {
		d, ok := c.(*directiveNode)
		if !ok {
			return gast.WalkContinue
		}
		if args, err := splitArgs(d.line); err == nil && len(args) >= 2 {
			l := walkLine{kind: args[0], file: args[1], names: args[2:], section: section}
			switch l.kind {
			case "callpath":
				walks = append(walks, l)
			case "go", "also":
				lines = append(lines, l)
			}
		}
		return gast.WalkContinue
	})
	if len(walks) == 0 {
		for _, l := range lines {
			if l.kind == "also" {
				fail(l.section, fmt.Sprintf(":::also %s: an :::also line names what a walked call runs, and the page walks none: name the calls with a :::callpath line (see CONTRIBUTING.md, Directive reference)", l.file))
			}
		}
		return
	}
	w := walkSets{need: make(map[callpath.PinFunc][]string), may: make(map[callpath.PinFunc]bool), dirs: make(map[string]bool), section: walks[0].section}
	for _, l := range walks {
		pin, err := r.pin(l.file)
		if err != nil {
			return // the :::callpath line failed to resolve, saying why
		}
		for _, dir := range pin.Core {
			w.dirs[dir] = true
		}
		for _, name := range l.names {
			w.add(pin, name)
		}
		w.pins = append(w.pins, l.file)
	}
	r.holdWalk(w, lines, fail)
}

// walkSets is what the walks of a page run.
type walkSets struct {
	// need are the functions some walked call runs beyond the empty
	// session, with the cases that run each: the page must show or name
	// them. The chapter's own (the handler) are among them.
	need map[callpath.PinFunc][]string
	// may are the functions a :::go or :::also line may name: need, what
	// every session runs, and what ran in some sessions only.
	may     map[callpath.PinFunc]bool
	dirs    map[string]bool // the packages held: the core's and the walked chapters'
	cases   []string
	pins    []string
	section string // of the first :::callpath line
}

// add adds the pinned case name of pin; a case the pin lacks was
// reported by its :::callpath line already.
func (w *walkSets) add(pin *callpath.Pin, name string) {
	c, ch := pin.Case(name)
	if c == nil {
		return
	}
	w.cases = append(w.cases, name)
	w.dirs[ch.Chapter] = true
	for _, f := range ch.Unsteady {
		w.may[f] = true
	}
	for _, f := range slices.Concat(c.Functions, c.Vars, c.Own) {
		w.need[f] = append(w.need[f], name)
		w.may[f] = true
	}
	for _, f := range ch.Setup {
		w.may[f] = true
	}
}

// holdWalk checks the :::go and :::also lines of a walk page against w.
func (r *resolver) holdWalk(w walkSets, lines []walkLine, fail func(section, msg string)) {
	pinned := strings.Join(w.pins, ", ") + " pins what each case runs; go generate ./... writes it"
	named := make(map[callpath.PinFunc]string) // how each function is named first
	for _, l := range lines {
		if !w.dirs[path.Dir(l.file)] || strings.HasSuffix(l.file, "_test.go") || len(l.names) == 0 || strings.HasPrefix(l.names[0], "region:") {
			continue // not held: another package's file, a test, a whole file or a region
		}
		funcs, err := r.fileFuncs(l.file)
		if err != nil {
			fail(l.section, fmt.Sprintf(":::%s %s: %v", l.kind, l.file, err))
			continue
		}
		for _, name := range l.names {
			f := callpath.PinFunc{File: l.file, Name: name}
			if !funcs[name] {
				continue // a type, a const, a var that holds no function: not run
			}
			line := fmt.Sprintf(":::%s %s ... %s", l.kind, l.file, name)
			switch {
			case !w.may[f]:
				fail(l.section, fmt.Sprintf("%s: no walked case (%s) runs %s: take it off the line; if a case should still run it, the code changed, or the pin is stale (%s)", line, strings.Join(w.cases, ", "), f, pinned))
			case named[f] != "" && (l.kind == "also" || strings.HasPrefix(named[f], ":::also")):
				fail(l.section, fmt.Sprintf("%s: %s is named twice, here and by %s: an :::also line names what no :::go line shows, once; take it off one of them", line, f, named[f]))
			case named[f] == "":
				named[f] = fmt.Sprintf(":::%s %s", l.kind, l.file)
			}
		}
	}
	var missing []callpath.PinFunc
	for f := range w.need {
		if named[f] == "" {
			missing = append(missing, f)
		}
	}
	slices.SortFunc(missing, func(a, b callpath.PinFunc) int { return strings.Compare(a.File+" "+a.Name, b.File+" "+b.Name) })
	for _, f := range missing {
		runs := "case " + w.need[f][0] + " runs"
		if len(w.need[f]) > 1 {
			runs = "cases " + strings.Join(w.need[f], ", ") + " run"
		}
		fail(w.section, fmt.Sprintf("%s %s, which the page neither shows nor names: show it with `:::go %s %s` where the walk reaches it, or add it to an `:::also %s` line (%s)",
			runs, f, f.File, f.Name, f.File, pinned))
	}
}

// fileFuncs returns the names of the functions a Go file declares, as :::go
// names them, and of its vars whose value holds a func literal.
func (r *resolver) fileFuncs(file string) (map[string]bool, error) {
	src, err := r.readFile(file)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names[funcName(d)] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				v, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, value := range v.Values {
					ast.Inspect(value, func(n ast.Node) bool {
						if _, ok := n.(*ast.FuncLit); ok {
							names[v.Names[min(i, len(v.Names)-1)].Name] = true
						}
						return true
					})
				}
			}
		}
	}
	return names, nil
}
