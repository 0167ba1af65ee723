package mcp

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestPackageDocExample checks that the code the package documentation
// opens with is the start of Example (doc_example_test.go), which is
// compiled and run, but for its last line, the call to Main, which
// Example cannot make.
func TestPackageDocExample(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if strings.HasPrefix(line, "\t") {
			code = append(code, line)
		} else if len(code) > 0 {
			break // the first code block only
		}
	}
	if len(code) < 2 || code[len(code)-1] != "\tmcp.Main(s)" {
		t.Fatalf("the package documentation should open with code ending in mcp.Main(s); its first code block is:\n%s", strings.Join(code, "\n"))
	}
	example, err := os.ReadFile("doc_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	want := "func Example() {\n" + strings.Join(code[:len(code)-1], "\n") + "\n"
	if !strings.Contains(string(example), want) {
		t.Errorf("Example in doc_example_test.go does not begin with the code of doc.go's package documentation; make them alike. doc.go has:\n%s", want)
	}
}
