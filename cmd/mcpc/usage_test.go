package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestUsageExamples runs every example of mcpc -h against the chapters'
// real servers and checks the exit status its heading promises, so that no
// example fails without saying that this is the point.
func TestUsageExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the chapters; skipped in -short mode")
	}
	bin := buildChapters(t)
	heading := regexp.MustCompile(`^  .* \((\d)\):$`)
	want, ran := -1, 0
	for line := range strings.Lines(usage[strings.Index(usage, "Examples"):]) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") { // a heading
			want = -1 // none for the HTTP examples, which start a server: TestUsageHTTPPort
			if m := heading.FindStringSubmatch(line); m != nil {
				want, _ = strconv.Atoi(m[1])
			}
			continue
		}
		cmd, ok := strings.CutPrefix(line, "    go run ./cmd/mcpc ")
		if !ok || want < 0 {
			continue
		}
		args := shellWords(t, cmd)
		for i, a := range args {
			if a == "go" && i+2 < len(args) && args[i+1] == "run" {
				chapter := strings.TrimPrefix(args[i+2], "./chapters/")
				args = append(args[:i:i], filepath.Join(bin, chapter))
				break
			}
		}
		if got := run(t.Context(), args, io.Discard, io.Discard); got != want {
			t.Errorf("mcpc %s: exit status %d, the usage says %d", cmd, got, want)
		}
		ran++
	}
	if ran < 5 {
		t.Errorf("only %d examples found in the usage", ran)
	}
}

// TestUsageHTTPPort checks that the HTTP example starts the chapter on the
// port it then asks, and not on the docs server's (go run ./docs serves on
// 8080), where the chapter could not listen while the guide is served.
func TestUsageHTTPPort(t *testing.T) {
	listen := regexp.MustCompile(`-http :(\d+) &`).FindStringSubmatch(usage)
	ask := regexp.MustCompile(`-url http://127\.0\.0\.1:(\d+)/mcp`).FindStringSubmatch(usage)
	if listen == nil || ask == nil || listen[1] != ask[1] || listen[1] == "8080" {
		t.Errorf("the HTTP example listens on %v and asks %v: want the same port, not 8080", listen, ask)
	}
}

// shellWords splits a command line as a POSIX shell would, for the
// examples' single-quoted arguments.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var w strings.Builder
	quoted, in := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %s", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// TestCheckStatusesNamed holds the exit statuses of check together: every
// status checkCommand can return (a constant it returns, read from its
// source) is named in mcpc -h, in check -h, in the package doc and on the
// page Check your server (section status), and none of them names another.
func TestCheckStatusesNamed(t *testing.T) {
	fset := token.NewFileSet()
	values := map[string]string{} // the exit constants of package main, by name
	var returned []string
	for _, name := range []string{"main.go", "check.go"} {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok && len(v.Values) == len(v.Names) {
				for i, id := range v.Names {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(id.Name, "exit") {
						values[id.Name] = lit.Value
					}
				}
			}
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name == "checkCommand" {
				ast.Inspect(fn, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
						if id, ok := r.Results[0].(*ast.Ident); ok && !slices.Contains(returned, values[id.Name]) {
							returned = append(returned, values[id.Name])
						}
					}
					return true
				})
			}
			return true
		})
	}
	slices.Sort(returned)
	if len(returned) < 4 || slices.Contains(returned, "") {
		t.Fatalf("checkCommand returns the statuses %q: a status that is not an exit constant of main.go or check.go?", returned)
	}
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "check", "en.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile("main.go")
	for _, text := range []struct{ name, text, start, end, status string }{
		{"mcpc -h", usage, "for check:", "Under", `(?:^|[ ,\n])(\d) `},
		{"mcpc check -h", checkHelp, "Exit status:", "Flags:", `(?:^|[ ,\n])(\d) `},
		{"the package doc (main.go)", string(doc), "check has statuses of its own", "For raw", `(?m)^//\t(\d)  `},
		{"docs/check/en.md, section status", string(page), "{#status}", "\n## ", `(?m)^- \*\*(\d)\*\*:`},
	} {
		_, part, ok := strings.Cut(text.text, text.start)
		part, _, _ = strings.Cut(part, text.end)
		if !ok {
			t.Errorf("%s: no %q, where check's exit statuses start", text.name, text.start)
			continue
		}
		var named []string
		for _, m := range regexp.MustCompile(text.status).FindAllStringSubmatch(part, -1) {
			named = append(named, m[1])
		}
		slices.Sort(named)
		if !slices.Equal(slices.Compact(named), returned) {
			t.Errorf("%s names the statuses %v of check; checkCommand returns %v", text.name, named, returned)
		}
	}
}
