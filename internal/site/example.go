package site

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"html/template"
	"strings"
)

// example includes the body of an Example function and the output that
// go test checks.
func (r *resolver) example(file, name string) (template.HTML, string, error) {
	code, output, err := r.exampleSource(file, name)
	if err != nil {
		return "", "", err
	}
	text := code + "\n" + output
	html := r.highlight("go", code) +
		`<div class="output"><div class="label">` + template.HTML(template.HTMLEscapeString(r.ui["output"])) + `</div>` +
		plain(output) + `</div>`
	return figure("example", "", sourceCaption(file, name), html), text, nil
}

// exampleSource returns the body of the Example function name of file,
// dedented, and the output its // Output: comment pins.
func (r *resolver) exampleSource(file, name string) (code, output string, err error) {
	src, err := r.readFile(file)
	if err != nil {
		return "", "", err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return "", "", err
	}
	var ex *doc.Example
	for _, e := range doc.Examples(f) {
		full := "Example" + e.Name
		if e.Suffix != "" {
			full += "_" + e.Suffix
		}
		if full == name {
			ex = e
		}
	}
	if ex == nil {
		return "", "", fmt.Errorf("%s has no example function %s: name an Example function of the file, or fix the name", file, name)
	}
	if ex.Output == "" && !ex.EmptyOutput {
		return "", "", fmt.Errorf("%s: %s has no // Output: comment, so go test does not check it", file, name)
	}
	body := ex.Code.(*ast.BlockStmt)
	end := body.Rbrace
	for _, c := range ex.Comments {
		if c.Pos() > body.Lbrace && c.End() <= body.Rbrace && isOutputComment(c) {
			end = c.Pos()
		}
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	return dedent(strings.Split(string(src[offset(body.Lbrace)+1:offset(end)]), "\n")), ex.Output, nil
}

// isOutputComment reports whether c is an example's output comment.
func isOutputComment(c *ast.CommentGroup) bool {
	t := strings.TrimSpace(c.Text())
	return strings.HasPrefix(t, "Output:") || strings.HasPrefix(t, "Unordered output:")
}
