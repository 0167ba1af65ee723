package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lessonWalk is CONTRIBUTING.md's walkthrough of a lesson of mcpc check.
const lessonWalk = "## Adding a lesson to mcpc check\n"

// walkName is the walkthrough's name, for messages.
var walkName = strings.TrimSpace(strings.TrimPrefix(lessonWalk, "##"))

// lessonWalkNew are the names the walkthrough's code declares: the only
// names it may give that the code does not declare yet.
var lessonWalkNew = []string{"LessonArgumentsNotObject", "argumentsNotObject", "judgeArgumentsNotObject"}

// lessonWalkPackages are the packages the walkthrough names code of.
var lessonWalkPackages = []string{"internal/check", "internal/check/checktest", "cmd/mcpc"}

// walkSection returns the walkthrough's text in CONTRIBUTING.md, its
// prose with each code block cut out, and its Go code blocks.
func walkSection(t *testing.T) (prose string, code []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(b), lessonWalk)
	if !ok {
		t.Fatalf("CONTRIBUTING.md has no section %q", walkName)
	}
	if i := strings.Index(s, "\n## "); i >= 0 {
		s = s[:i]
	}
	for {
		before, rest, ok := strings.Cut(s, "```")
		if !ok {
			return prose + s, code
		}
		prose += before
		block, after, _ := strings.Cut(rest, "```")
		if lang, body, _ := strings.Cut(block, "\n"); lang == "go" {
			code = append(code, body)
		}
		s = after
	}
}

// declared returns every name the packages declare, tests included: at top
// level as Name, and each method and struct field as Type.Name.
func declared(t *testing.T, dirs []string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s (%v)", dir, err)
		}
		for _, file := range files {
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						names[d.Name.Name] = true
						continue
					}
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					names[recv.(*ast.Ident).Name+"."+d.Name.Name] = true
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch spec := spec.(type) {
						case *ast.TypeSpec:
							names[spec.Name.Name] = true
							if st, ok := spec.Type.(*ast.StructType); ok {
								for _, field := range st.Fields.List {
									for _, n := range field.Names {
										names[spec.Name.Name+"."+n.Name] = true
									}
								}
							}
						case *ast.ValueSpec:
							for _, n := range spec.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names
}

// goName matches a code span that names Go: Name or Type.Member.
var goName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// pathSpan matches a code span that names a file or directory of the
// repository.
var pathSpan = regexp.MustCompile(`^(?:cmd|internal|mcp|docs|sdks|chapters|testdata)(?:/[\w.-]+)*$`)

// TestLessonWalkthroughNames holds CONTRIBUTING.md's walkthrough of a
// lesson of mcpc check to the code: every Go name it gives in its prose is
// declared by internal/check, its fixture server or cmd/mcpc (the names
// its own code adds aside), and every path it gives exists.
func TestLessonWalkthroughNames(t *testing.T) {
	prose, _ := walkSection(t)
	names := declared(t, lessonWalkPackages)
	for _, n := range lessonWalkNew {
		names[n] = true
	}
	spans := regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(prose, -1)
	checked := 0
	for _, m := range spans {
		span := m[1]
		switch {
		case pathSpan.MatchString(span):
			if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(span))); err != nil {
				t.Errorf("CONTRIBUTING.md, %s: `%s` names no file of the repository: %v", walkName, span, err)
			}
			checked++
		case goName.MatchString(span):
			if !names[span] {
				t.Errorf("CONTRIBUTING.md, %s: `%s` is declared by none of %s: if it was renamed, write its new name", walkName, span, strings.Join(lessonWalkPackages, ", "))
			}
			checked++
		}
	}
	if checked < 30 {
		t.Errorf("only %d names and paths checked in the walkthrough; did its spans change shape?", checked)
	}
}

// TestLessonWalkthroughCompiles compiles the walkthrough's code that stands
// alone (the lesson's constant and its planner method) into internal/check,
// with go build's -overlay, so that the code a contributor copies builds
// against the package as it is.
func TestLessonWalkthroughCompiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to compile the walkthrough's code:", err)
	}
	_, code := walkSection(t)
	declared(t, lessonWalkPackages) // opens the package's files, so that go test's cache sees a change to them
	var src strings.Builder
	src.WriteString("package check\n\n")
	for _, c := range code {
		switch {
		case strings.HasPrefix(strings.TrimSpace(c), "case "): // a case of judgeClass's switch: not code of its own
		case strings.HasPrefix(strings.TrimSpace(c), "Lesson"):
			src.WriteString("const (\n" + c + ")\n\n")
		default:
			src.WriteString(c + "\n")
		}
	}
	if !strings.Contains(src.String(), "func (pl *planner) argumentsNotObject") {
		t.Fatalf("the walkthrough's code has no planner method argumentsNotObject:\n%s", src.String())
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "walkthrough.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	target, err := filepath.Abs(filepath.Join("..", "internal", "check", "zz_walkthrough.go"))
	if err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{target: file}})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay", overlayFile, "./internal/check")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the walkthrough's code does not build in internal/check: %v\n%s\n%s", err, out, src.String())
	}
}
