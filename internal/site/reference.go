package site

import (
	"fmt"
	"strings"
)

// Markers around the generated directive reference in CONTRIBUTING.md:
// TestDirectiveReference fails when what lies between them is not
// directiveReference(), and with -update writes it there.
const (
	referenceBegin = "<!-- directives: generated from internal/site/directives.go by go generate ./...; do not edit -->"
	referenceEnd   = "<!-- end directives -->"
)

// syntaxNotation explains how the reference writes a directive's syntax.
const syntaxNotation = "A directive is a line of its own in a page's Markdown that starts with `:::`; " +
	"it includes something of the repository (code, a pinned transcript, an error text) instead of a copy of it. " +
	"In the syntax below, UPPER words are arguments, `[X]` may be left out and `X...` is one or more; " +
	"an argument with spaces is Go-quoted (`\"like this\"`). Paths are from the repository's root. " +
	"A directive that does not resolve, or has the wrong number of arguments, fails `go run ./docs build` and `go test ./docs`, " +
	"naming the page, the section and the fix; a build reports every problem it meets in one run (every directive, code span and link of every page, " +
	"those of a page whose directive fails included). Translations keep the English page's directives, in order."

// directiveReference renders the directive table, and the rule the build
// checks code spans by, as Markdown: the body of CONTRIBUTING.md's
// directive reference.
func directiveReference() string {
	var b strings.Builder
	b.WriteString(syntaxNotation + "\n")
	for _, d := range directives {
		min, max := d.arity()
		count := fmt.Sprintf("%d arguments", min)
		switch {
		case max < 0:
			count = fmt.Sprintf("%d or more arguments", min)
		case max > min:
			count = fmt.Sprintf("%d to %d arguments", min, max)
		case min == 1:
			count = "1 argument"
		}
		fmt.Fprintf(&b, "\n### `:::%s`\n\n```text\n%s\n```\n\n%s (%s.)\n\nExample:\n\n```text\n%s\n```\n",
			d.name, d.syntax, d.help, count, d.example)
	}
	b.WriteString("\n### Code spans\n\n" + codeSpanRule + "\n")
	return b.String()
}

// replaceReference returns doc with what lies between the reference
// markers replaced by ref.
func replaceReference(doc, ref string) (string, error) {
	before, rest, ok := strings.Cut(doc, referenceBegin+"\n")
	if !ok {
		return "", fmt.Errorf("no line %q", referenceBegin)
	}
	_, after, ok := strings.Cut(rest, referenceEnd)
	if !ok {
		return "", fmt.Errorf("no %q after %q", referenceEnd, referenceBegin)
	}
	return before + referenceBegin + "\n" + ref + referenceEnd + after, nil
}
