package site

import (
	"bytes"
	"fmt"
	"html/template"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// directiveNode is a ":::" line in the AST. Resolving fills html and text.
type directiveNode struct {
	ast.BaseBlock
	line string // the directive, without ":::"
	at   int    // the offset of its ":::" in the page's Markdown
	html string // what it renders to
	text string // its plain text, for the search index
	md   string // what it renders to as Markdown (see markdownout.go)
}

var kindDirective = ast.NewNodeKind("Directive")

func (n *directiveNode) Kind() ast.NodeKind { return kindDirective }

func (n *directiveNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"line": n.line}, nil)
}

// noteNode is HTML the generator adds to a page, such as the note under a
// section that follows an older English text.
type noteNode struct {
	ast.BaseBlock
	html template.HTML
}

var kindNote = ast.NewNodeKind("Note")

func (n *noteNode) Kind() ast.NodeKind { return kindNote }

func (n *noteNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// directiveParser turns a line starting with ":::" into a directiveNode.
type directiveParser struct{}

func (directiveParser) Trigger() []byte { return []byte{':'} }

func (directiveParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte(":::"))
	if !ok || len(rest) == 0 {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &directiveNode{line: string(rest), at: seg.Start + bytes.Index(line, []byte(":::"))}, parser.NoChildren
}

func (directiveParser) Continue(ast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}
func (directiveParser) Close(ast.Node, text.Reader, parser.Context) {}
func (directiveParser) CanInterruptParagraph() bool                 { return true }
func (directiveParser) CanAcceptIndentedLine() bool                 { return false }

// nodeRenderer renders directives as resolved, notes as they are, the
// wrapper of a section shown in English, and headings with an anchor link.
type nodeRenderer struct{}

func (nodeRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(kindDirective, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			w.WriteString(n.(*directiveNode).html)
		}
		return ast.WalkSkipChildren, nil
	})
	r.Register(kindNote, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			w.WriteString(string(n.(*noteNode).html))
		}
		return ast.WalkSkipChildren, nil
	})
	r.Register(kindWrap, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && n.(*wrapNode).open {
			w.WriteString(`<div class="in-english" lang="en">` + "\n")
		} else if entering {
			w.WriteString("</div>\n")
		}
		return ast.WalkSkipChildren, nil
	})
	r.Register(extast.KindTableCell, renderTableCell)
	r.Register(ast.KindHeading, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		h := n.(*ast.Heading)
		id, _ := h.AttributeString("id")
		if entering {
			fmt.Fprintf(w, "<h%d", h.Level)
			if id != nil {
				fmt.Fprintf(w, ` id="%s"`, template.HTMLEscapeString(string(id.([]byte))))
			}
			w.WriteString(">")
			return ast.WalkContinue, nil
		}
		if id != nil {
			label := "Link to this section"
			if l, ok := h.AttributeString(anchorLabel); ok {
				label = l.(string)
			}
			fmt.Fprintf(w, `<a class="anchor" href="#%s" aria-label="%s">#</a>`, template.HTMLEscapeString(string(id.([]byte))), template.HTMLEscapeString(label))
		}
		fmt.Fprintf(w, "</h%d>\n", h.Level)
		return ast.WalkContinue, nil
	})
}

// anchorLabel is the attribute of a heading that holds the label of its
// anchor link, in the page's language; the page's build sets it.
const anchorLabel = "anchor-label"

// codeWrapper wraps every highlighted block so the script can add a copy
// button to it.
func codeWrapper(w util.BufWriter, ctx highlighting.CodeBlockContext, entering bool) {
	if entering {
		w.WriteString(`<div class="code">`)
	} else {
		w.WriteString(`</div>`)
	}
}

// newMarkdown returns the guide's Markdown dialect: GitHub tables, heading
// attributes, directives, highlighting through CSS classes.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.Table,
			extension.Strikethrough,
			highlighting.NewHighlighting(
				highlighting.WithFormatOptions(formatOptions...),
				highlighting.WithWrapperRenderer(codeWrapper),
			),
		),
		goldmark.WithParserOptions(
			parser.WithAttribute(),
			parser.WithBlockParsers(util.Prioritized(directiveParser{}, 50)),
		),
		goldmark.WithRendererOptions(
			html.WithUnsafe(),
			renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{}, 50)),
		),
	)
}

// joinLine clears the line break at the end of the text n when it falls
// between two Chinese or Japanese characters, so that they join as in
// print instead of showing a space. A break between Korean words, or next
// to any other letter, stays a space. (goldmark's CJK extension drops the
// break before a link or code span, even between Latin words.)
func joinLine(n *ast.Text, src []byte) {
	if !n.SoftLineBreak() {
		return
	}
	last, _ := utf8.DecodeLastRune(n.Segment.Value(src))
	if next := firstRune(n.NextSibling(), src); joinsWithoutSpace(last) && joinsWithoutSpace(next) {
		n.SetSoftLineBreak(false)
	}
}

// wholeSpan is the most characters a code span kept on one line may have:
// a flag with its argument, an identifier, a short call. Longer spans wrap,
// so that none is wider than a phone's screen.
const wholeSpan = 32

// keepWhole gives a short code span the class "whole", which the style
// keeps on one line: a line break inside `-junit` or `-tools NAMES` reads
// as two words.
func keepWhole(n *ast.CodeSpan, src []byte) {
	if utf8.RuneCountInString(plainText(n, src)) <= wholeSpan {
		n.SetAttributeString("class", []byte("whole"))
	}
}

// firstRune returns the first character n renders, or utf8.RuneError.
func firstRune(n ast.Node, src []byte) rune {
	for ; n != nil; n = n.FirstChild() {
		switch n := n.(type) {
		case *ast.Text:
			r, _ := utf8.DecodeRune(n.Segment.Value(src))
			return r
		case *ast.String:
			r, _ := utf8.DecodeRune(n.Value)
			return r
		}
	}
	return utf8.RuneError
}

// joinsWithoutSpace reports whether r is written without spaces around it:
// Han, kana, the marks kana share (the middle dot ・ and the long-vowel
// mark ー, which Unicode counts as neither script), and the CJK and
// full-width punctuation.
func joinsWithoutSpace(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r == 0x30fb || r == 0x30fc ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff01 && r <= 0xff60)
}

// heading is one h2 or h3 of a page, for its table of contents.
type heading struct {
	Level int
	ID    string
	Text  string
}

// plainText returns the text of n and its descendants.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := c.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(src))
			}
		case *directiveNode:
			b.WriteString(c.text)
		}
		if c.Kind() != ast.KindText && c.Type() == ast.TypeBlock && b.Len() > 0 {
			b.WriteByte(' ')
		}
		return ast.WalkContinue, nil
	})
	return string(bytes.Join(bytes.Fields(b.Bytes()), []byte(" ")))
}
