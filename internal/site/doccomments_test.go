package site

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// docName matches what a comment may name of Go: a doc link's text
// ([Options.Observe]), a dotted chain of names (Server.flushLog,
// jsonwire.Unmarshal), or one name.
var docName = regexp.MustCompile(`\[([^\]\s]+)\]|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// testFunc matches the name of a test, benchmark, fuzz target or example.
var testFunc = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)[A-Z_]`)

// moduleWords is what the Go files of a module spell: every identifier,
// declared or used, every JSON name a struct tag gives, and every word of
// a string literal. A lowerCamel name in a comment that none of them
// spells names nothing of the module.
type moduleWords struct {
	words map[string]bool
	funcs map[string]bool // top-level funcs: the tests a comment may name
}

// goFiles returns the Go files of the module at the root of fsys, by
// directory, leaving out testdata, hidden directories and nested modules
// (the SDK modules under sdks/, each with a go.mod of its own).
func goFiles(fsys fs.FS) (map[string][]string, error) {
	files := make(map[string][]string)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := path.Base(name)
		if d.IsDir() && name != "." {
			if base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
				return fs.SkipDir
			}
			if _, err := fs.Stat(fsys, name+"/go.mod"); err == nil {
				return fs.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			files[path.Dir(name)] = append(files[path.Dir(name)], name)
		}
		return nil
	})
	return files, err
}

// docProblems checks the comments of every Go file of the module at the
// root of fsys, tests included, and returns one line for each name that a
// comment gives and the module does not declare:
//
//   - a test, benchmark, fuzz target or example (TestErrorFill) must be a
//     function of the module;
//   - a doc link or a dotted chain (Options.Observe, jsonwire.Unmarshal,
//     [Server.Serve]) is checked as an English page's code span is, with
//     the comment's own package as the package the page includes code
//     from (see codeSpanRule);
//   - a lowerCamel name alone (appendResult) must be spelled somewhere in
//     the module's Go files: as an identifier, a JSON name, or a word of a
//     string literal.
func docProblems(fsys fs.FS) ([]string, error) {
	dirs, err := goFiles(fsys)
	if err != nil {
		return nil, err
	}
	mw := moduleWords{words: make(map[string]bool), funcs: make(map[string]bool)}
	type parsed struct {
		dir  string
		file *ast.File
	}
	var all []parsed
	fset := token.NewFileSet()
	for dir, names := range dirs {
		for _, name := range names {
			src, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			mw.add(f)
			all = append(all, parsed{dir, f})
		}
	}
	r := newResolver(fsys, nil)
	ix, err := r.goIndex()
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, p := range all {
		for _, g := range p.file.Comments {
			for _, c := range g.List {
				for _, msg := range mw.check(r, ix, p.dir, c.Text) {
					problems = append(problems, fmt.Sprintf("%s: %s", fset.Position(c.Pos()), msg))
				}
			}
		}
	}
	slices.Sort(problems)
	return problems, nil
}

// add adds what f spells to w.
func (w moduleWords) add(f *ast.File) {
	addJSONNames(f, w.words)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			w.words[n.Name] = true
		case *ast.FuncDecl:
			if n.Recv == nil {
				w.funcs[n.Name.Name] = true
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				s, err := strconv.Unquote(n.Value)
				if err != nil {
					s = n.Value
				}
				for _, m := range docName.FindAllString(s, -1) {
					for part := range strings.SplitSeq(m, ".") {
						w.words[part] = true
					}
				}
			}
		}
		return true
	})
}

// fileExts are the extensions that make a dotted name a file
// (lessons.json, page.html), not Go.
var fileExts = []string{"go", "json", "jsonl", "md", "html", "txt", "txtar", "log", "mod", "sum", "css", "js", "wasm", "yml", "yaml", "sh", "conf", "xml"}

// goLike reports whether a comment's dotted name may be Go: not a file
// name, and no JSON member (params._meta) in it.
func goLike(name string) bool {
	parts := strings.Split(name, ".")
	return !slices.Contains(fileExts, parts[len(parts)-1]) &&
		!slices.ContainsFunc(parts[1:], func(p string) bool { return strings.HasPrefix(p, "_") })
}

// upperCamel matches an exported name with a lowercase letter in it:
// Server, not ARGS.
var upperCamel = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*[a-z]`)

// camelWords matches a lowerCamel name with a word after the first
// (appendResult, fillText), not a prefix such as bN.
var camelWords = regexp.MustCompile(`^[a-z][a-z0-9]*[A-Z][a-z]`)

// spelled reports whether the module spells name, or, for a plural
// (bodyBuffers), its singular.
func (w moduleWords) spelled(name string) bool {
	return w.words[name] || w.words[strings.TrimSuffix(name, "s")]
}

// check returns what is wrong with the names that text, a comment of the
// package in dir, gives.
func (w moduleWords) check(r *resolver, gx *goIndex, dir, text string) []string {
	var problems []string
	for _, ix := range docName.FindAllStringSubmatchIndex(text, -1) {
		name, link := text[ix[0]:ix[1]], ix[2] >= 0
		if link {
			name = text[ix[2]:ix[3]]
			if strings.HasPrefix(text[ix[1]:], "(") {
				continue // a Markdown link, [text](url)
			}
		}
		bare := strings.TrimLeft(name, "*")
		switch {
		case testFunc.MatchString(bare):
			if base, _, _ := strings.Cut(bare, "/"); !w.funcs[base] {
				problems = append(problems, fmt.Sprintf("names %s, which no file of the module declares: write the name the test has now", base))
			}
		case strings.Contains(bare, "."):
			if !goLike(bare) {
				continue
			}
			if c := r.checkSpan(gx, name, []string{dir}, nil); c.problem != "" {
				problems = append(problems, fmt.Sprintf("%s %s", name, c.problem))
			}
		case link:
			// A link to an exported name must find it in the package;
			// [eE], [0] and [ARGS] are no links.
			if !upperCamel.MatchString(bare) {
				continue
			}
			p, err := r.declarations(dir, true)
			if err != nil {
				return append(problems, err.Error())
			}
			if !p.names[bare] {
				problems = append(problems, fmt.Sprintf("[%s] links to nothing: %s declares no %s; write the name it has now", name, dir, bare))
			}
		case camelWords.MatchString(bare) && !w.spelled(bare):
			problems = append(problems, fmt.Sprintf("names %s, which nothing of the module spells: if it was renamed, write its new name; "+
				"if it is not the module's, qualify it (pkg.name)", bare))
		}
	}
	return problems
}

// TestDocComments checks that every comment of the module names only
// what exists: a function renamed, a test removed or a field gone fails
// it until the comments that named them follow.
func TestDocComments(t *testing.T) {
	problems, err := docProblems(os.DirFS(repoRoot))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// docFixture is a module whose comments name what exists, what does not,
// and what is not Go.
var docFixture = fstest.MapFS{
	"go.mod": {Data: []byte("module example.com/m\n")},
	"shop/shop.go": {Data: []byte(`// Package shop sells books: see [Shop.Sell], Shop.count, [Open] and
// sellOne, tested by TestSell and BenchmarkSell/fast; its files are shop.go
// and lessons.json, a request's params._meta holds the version, usage is
// shop [ARGS], a list item reads [Title](url), a session prefix bN-, and
// Go's own test.computeInputsID is qualified.
package shop

// Shop is a shop; its counts are bodyCounts.
type Shop struct{ count int }

// Open opens a shop.
func Open() *Shop { return &Shop{} }

// Sell sells one book (sellOne) and names the gone: Shop.Buy, [Shop.Lend],
// [Close], shop.Gone, closeShop, TestGone and ExampleShop_Gone.
func (s *Shop) Sell() { sellOne(s) }

func sellOne(s *Shop) { s.count++ }

var bodyCount = "a string that spells stringWords"
`)},
	"shop/shop_test.go": {Data: []byte(`package shop

import "testing"

// TestSell checks Sell, and stringWords is spelled by a string.
func TestSell(t *testing.T) { Open().Sell() }

func BenchmarkSell(b *testing.B) {}
`)},
	"sdks/other/go.mod":  {Data: []byte("module example.com/other\n")},
	"sdks/other/x.go":    {Data: []byte("// Package other names goneElsewhere, a module of its own.\npackage other\n")},
	"shop/testdata/x.go": {Data: []byte("// Package x names goneInTestdata.\npackage x\n")},
}

// TestDocProblems checks that docProblems reports each name the fixture's
// comments give that its module does not declare, and nothing else.
func TestDocProblems(t *testing.T) {
	problems, err := docProblems(docFixture)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Shop.Buy", "Shop.Lend", "[Close]", "shop.Gone", "closeShop", "TestGone", "ExampleShop_Gone"}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d (one for each of %v):\n%s", len(problems), len(want), want, strings.Join(problems, "\n"))
	}
	for _, name := range want {
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, name) }) {
			t.Errorf("no problem reported for %s in:\n%s", name, strings.Join(problems, "\n"))
		}
	}
}
