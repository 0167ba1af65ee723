package site

import (
	"flag"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
)

var update = flag.Bool("update", false, "rewrite the directive reference in CONTRIBUTING.md from the directive table")

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// contributing is the file that holds the directive reference.
var contributing = filepath.Join(repoRoot, "CONTRIBUTING.md")

// TestDirectiveReference checks that CONTRIBUTING.md's directive reference
// is the one the directive table renders, or with -update writes it; go
// generate ./... runs it so, with the pins (internal/refresh).
func TestDirectiveReference(t *testing.T) {
	b, err := os.ReadFile(contributing)
	if err != nil {
		t.Fatal(err)
	}
	want, err := replaceReference(string(b), directiveReference())
	if err != nil {
		t.Fatalf("CONTRIBUTING.md: %v: put the two marker lines where the reference goes, then run go generate ./...", err)
	}
	if want == string(b) {
		return
	}
	if *update {
		if err := os.WriteFile(contributing, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote the directive reference into %s", contributing)
		return
	}
	t.Errorf("CONTRIBUTING.md's directive reference differs from the directive table (internal/site/directives.go).\n" +
		"Edit the table, not CONTRIBUTING.md, then regenerate the reference with:\n\n" +
		"\tgo generate ./...\n\nor, for this reference only:\n\n\tgo test ./internal/site -run TestDirectiveReference -update")
}

// TestReplaceReference checks the markers' handling: what is outside them
// is kept, and a file without them is an error.
func TestReplaceReference(t *testing.T) {
	doc := "# Guide\n\n## Directive reference\n\n" + referenceBegin + "\nold\n" + referenceEnd + "\n\n## After\n"
	got, err := replaceReference(doc, "new\n")
	if want := "# Guide\n\n## Directive reference\n\n" + referenceBegin + "\nnew\n" + referenceEnd + "\n\n## After\n"; err != nil || got != want {
		t.Errorf("replaceReference = %q, %v; want %q", got, err, want)
	}
	if _, err := replaceReference("# Guide\n", "new\n"); err == nil {
		t.Error("replaceReference of a file without markers succeeded")
	}
	if _, err := replaceReference(referenceBegin+"\nno end\n", "new\n"); err == nil {
		t.Error("replaceReference of a file without an end marker succeeded")
	}
}

// TestArity checks that the argument counts read from the syntaxes are
// the ones the resolvers need.
func TestArity(t *testing.T) {
	want := map[string][2]int{"go": {1, -1}, "example": {2, 2}, "transcript": {2, 2}, "message": {2, -1}, "error": {2, 2}, "errors": {1, 1}, "sdks": {1, 1}, "file": {2, 2}, "callpath": {2, -1}, "also": {2, -1}}
	if len(want) != len(directives) {
		t.Errorf("the table has %d directives, the test knows %d", len(directives), len(want))
	}
	for _, d := range directives {
		if min, max := d.arity(); [2]int{min, max} != want[d.name] {
			t.Errorf(":::%s: arity %d, %d; want %v", d.name, min, max, want[d.name])
		}
		if !strings.HasPrefix(d.syntax, ":::"+d.name+" ") || !strings.HasPrefix(d.example, ":::"+d.name+" ") {
			t.Errorf(":::%s: syntax %q or example %q does not start with the directive", d.name, d.syntax, d.example)
		}
	}
}

// TestDirectiveUsage checks that a wrong number of arguments is told with
// the directive's syntax.
func TestDirectiveUsage(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{":::file deploy/shelf.conf", "got 1 argument, want :::file FILE LANGUAGE"},
		{":::transcript testdata/scripts/01-demo/demo.txtar ok extra", "got 3 arguments, want :::transcript ARCHIVE CASE"},
		{":::go", "got 0 arguments, want :::go FILE [NAME...]"},
		{":::message msgs", `got 1 argument, want :::message DIR "TEXT"...`},
		{":::paste x", `unknown directive "paste": the directives are go, example, transcript, message, error, errors, sdks, file`},
	} {
		_, err := buildPages(t, en("index", tt.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Build error %v, want one containing %q", tt.line, err, tt.want)
		}
	}
}

// resolveInRepo resolves line against the repository, on a page of its
// own; an :::errors line is resolved on the reference page, the only page
// it can be on, and an :::sdks line on the page Your SDK, whose headings
// its lessons need; the page must hold the line.
func resolveInRepo(t *testing.T, line string) error {
	t.Helper()
	_, err := resolvedInRepo(t, line)
	return err
}

// resolvedInRepo resolves line as resolveInRepo does, and returns it.
func resolvedInRepo(t *testing.T, line string) (*directiveNode, error) {
	t.Helper()
	slug, src := "index", line+"\n"
	for prefix, page := range map[string]string{":::errors ": referencePage, ":::sdks ": "your-sdk"} {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		s, err := loadSource(os.DirFS(filepath.Join(repoRoot, "docs")), page, SourceLanguage)
		if err != nil {
			t.Fatal(err)
		}
		slug, src = page, string(s.body)
	}
	res := newResolver(os.DirFS(repoRoot), nil)
	res.slug, res.src, res.rewrite = slug, []byte(src), func(s string) string { return s }
	doc := newMarkdown().Parser().Parse(text.NewReader(res.src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if d, ok := n.(*directiveNode); ok && ":::"+d.line == line {
			return d, res.resolve(d)
		}
	}
	t.Fatalf("%s is not a directive of the %s page", line, slug)
	return nil, nil
}

// TestDirectiveExamples checks that each directive's example in the
// reference resolves against the repository.
func TestDirectiveExamples(t *testing.T) {
	for _, d := range directives {
		if err := resolveInRepo(t, d.example); err != nil {
			t.Errorf("the example of :::%s in the directive table does not resolve: %s: %v", d.name, d.example, err)
		}
	}
}

// TestDocExamples checks that every directive in the package
// documentation's code blocks resolves against the repository.
func TestDocExamples(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var p comment.Parser
	var lines []string
	for _, b := range p.Parse(f.Doc.Text()).Content {
		if code, ok := b.(*comment.Code); ok {
			for l := range strings.Lines(code.Text) {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, ":::") {
					lines = append(lines, l)
				}
			}
		}
	}
	kinds := make(map[string]bool)
	for _, l := range lines {
		kinds[strings.Fields(l)[0]] = true
		if err := resolveInRepo(t, l); err != nil {
			t.Errorf("doc.go's example %s does not resolve: %v", l, err)
		}
	}
	for _, d := range directives {
		if !kinds[":::"+d.name] {
			t.Errorf("doc.go has no example of :::%s", d.name)
		}
	}
}
