package site

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// compose decides what the translation p shows of each section of its
// English page en, and writes the body it renders, in the English order:
//
//   - a section current with its English shows the translation, which
//     must keep the English section's structure (see compareStructure):
//     anything else is an error;
//   - a section behind shows the translation as well if it keeps the
//     structure of the English section as it is now, so that every
//     directive, code block and link the reader sees is the current one;
//   - otherwise (a directive, heading id, code or link changed in English,
//     or the translation lacks the section) it shows the English section.
//
// Sections the English page no longer has are left out. The page so has
// every heading id of the English page, once, and links only where the
// English page links.
func (b *builder) compose(md goldmark.Markdown, p, en *page) {
	own := md.Parser().Parse(text.NewReader(p.src.body))
	p.structure = structure(own, p.src.body)
	lag := compareSections(en.src.sections, p.src.sections, p.src.record)
	for _, id := range lag.twice {
		b.fail(p, id, fmt.Sprintf("the translation has two sections {#%s}: keep one, where %s has it", id, en.src.file))
	}
	mine := make(map[string]section)
	for _, s := range p.src.sections {
		if _, ok := mine[s.id]; !ok {
			mine[s.id] = s
		}
	}
	var body bytes.Buffer
	p.english = make(map[string]bool)
	for _, s := range en.src.sections {
		t, has := mine[s.id]
		_, behind := lag.behind[s.id]
		var diffs []string
		if has && !slices.Contains(lag.twice, s.id) {
			diffs = compareStructure(en.structure.sections[s.id], p.structure.sections[s.id], en.src.file)
		}
		switch {
		case !behind:
			for _, d := range diffs {
				b.fail(p, s.id, d)
			}
		case !has || len(diffs) > 0:
			p.english[s.id] = true
		}
		if behind {
			p.behind = append(p.behind, s.id)
		}
		part := t.text
		if p.english[s.id] {
			part = s.text
		}
		body.Write(part)
		switch { // end each part with a blank line, so the next starts a block
		case bytes.HasSuffix(part, []byte("\n\n")):
		case bytes.HasSuffix(part, []byte("\n")):
			body.WriteString("\n")
		default:
			body.WriteString("\n\n")
		}
	}
	p.body = body.Bytes()
}

// wrapNode opens or closes, in a translation, a section shown in English.
type wrapNode struct {
	ast.BaseBlock
	open bool
}

var kindWrap = ast.NewNodeKind("Wrap")

func (n *wrapNode) Kind() ast.NodeKind { return kindWrap }

func (n *wrapNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// annotate marks the sections of the translation p that are behind its
// English page en: a note under each one's heading (for the top, at the
// start), and around those shown in English, a wrapper that says so.
// ui is p's language's interface strings.
func (p *page) annotate(en *page, ui map[string]string) {
	type part struct {
		id    string
		nodes []ast.Node
	}
	parts := []part{{id: TopSection}}
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
			if id, ok := h.AttributeString("id"); ok {
				parts = append(parts, part{id: string(id.([]byte))})
			}
		}
		parts[len(parts)-1].nodes = append(parts[len(parts)-1].nodes, n)
	}
	for _, s := range parts {
		if !slices.Contains(p.behind, s.id) {
			continue
		}
		var note template.HTML
		if p.english[s.id] {
			note = template.HTML(fmt.Sprintf(`<p class="section-behind" role="note" lang="%s">%s</p>`+"\n", esc(p.lang), esc(ui["sectionInEnglish"])))
		} else {
			target, title := relative(p.url, en.url), en.src.title
			if h := en.heading(s.id); h != nil && s.id != TopSection {
				target, title = target+"#"+s.id, h.Text
			}
			note = template.HTML(fmt.Sprintf(`<p class="section-behind" role="note">%s <a href="%s" hreflang="en" lang="en">%s</a></p>`+"\n",
				esc(ui["sectionBehind"]), target, esc(title)))
		}
		if len(s.nodes) > 0 && p.english[s.id] {
			p.doc.InsertBefore(p.doc, s.nodes[0], &wrapNode{open: true})
			p.doc.InsertAfter(p.doc, s.nodes[len(s.nodes)-1], &wrapNode{})
		}
		switch {
		case s.id == TopSection:
			p.doc.InsertBefore(p.doc, p.doc.FirstChild(), &noteNode{html: note})
		case len(s.nodes) > 0:
			p.doc.InsertAfter(p.doc, s.nodes[0], &noteNode{html: note})
		}
	}
}

// pageStructure is what a translation must keep of its English page,
// section by section.
type pageStructure struct {
	order    []string // section ids, TopSection first
	sections map[string]*sectionStructure
}

// sectionStructure is what a section shows that does not depend on its
// language: the ids of its headings and its directives and code blocks,
// in order; its code spans and link destinations, sorted (word order
// differs between languages).
type sectionStructure struct{ ids, directives, blocks, spans, links []string }

// structure reads the structure of each section of doc, parsed from src.
func structure(doc ast.Node, src []byte) pageStructure {
	ps := pageStructure{order: []string{TopSection}, sections: map[string]*sectionStructure{TopSection: {}}}
	cur := ps.sections[TopSection]
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
			if id, ok := h.AttributeString("id"); ok && ps.sections[string(id.([]byte))] == nil {
				cur = &sectionStructure{}
				ps.order = append(ps.order, string(id.([]byte)))
				ps.sections[string(id.([]byte))] = cur
			}
		}
		ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch c := c.(type) {
			case *ast.Heading:
				if id, ok := c.AttributeString("id"); ok {
					cur.ids = append(cur.ids, string(id.([]byte)))
				}
			case *directiveNode:
				cur.directives = append(cur.directives, ":::"+c.line)
			case *ast.FencedCodeBlock:
				var b bytes.Buffer
				for i := range c.Lines().Len() {
					seg := c.Lines().At(i)
					b.Write(seg.Value(src))
				}
				cur.blocks = append(cur.blocks, b.String())
			case *ast.CodeSpan:
				cur.spans = append(cur.spans, plainText(c, src))
				return ast.WalkSkipChildren, nil
			case *ast.Link:
				cur.links = append(cur.links, string(c.Destination))
			case *ast.AutoLink:
				cur.links = append(cur.links, string(c.URL(src)))
			}
			return ast.WalkContinue, nil
		})
	}
	for _, s := range ps.sections {
		slices.Sort(s.spans)
		slices.Sort(s.links)
	}
	return ps
}

// compareStructure says how the section tr of a translation differs from
// the section en of the English page enFile: one sentence for each of its
// heading ids, directives, code blocks, code spans and links that differ,
// ending with the fix. A nil section has nothing.
func compareStructure(en, tr *sectionStructure, enFile string) []string {
	if en == nil {
		en = &sectionStructure{}
	}
	if tr == nil {
		tr = &sectionStructure{}
	}
	var out []string
	for _, d := range []struct {
		what    string
		a, b    []string
		ordered bool
		fix     string
	}{
		{"heading ids", en.ids, tr.ids, true, "give its headings the English ids ({#id}), in the same order"},
		{"directives", en.directives, tr.directives, true, "a current section includes what its English section includes, in the same order: copy the directive lines from " + enFile},
		{"code blocks", en.blocks, tr.blocks, true, "code stays as the English section has it, comments included"},
		{"code spans", en.spans, tr.spans, false, "code stays as the English section has it: translate the words around it"},
		{"links", en.links, tr.links, false, "link where the English section links"},
	} {
		lacks, extra := difference(d.a, d.b), difference(d.b, d.a)
		switch {
		case len(lacks)+len(extra) > 0:
			var parts []string
			if len(lacks) > 0 {
				parts = append(parts, "lacks "+quoteAll(lacks))
			}
			if len(extra) > 0 {
				parts = append(parts, "has "+quoteAll(extra)+" besides")
			}
			out = append(out, fmt.Sprintf("%s differ from the English section's: %s (%s)", d.what, strings.Join(parts, ", "), d.fix))
		case d.ordered && !slices.Equal(d.a, d.b):
			out = append(out, fmt.Sprintf("%s are the English section's in another order (%s)", d.what, d.fix))
		}
	}
	return out
}

// quoteAll quotes each item, joined by ", ".
func quoteAll(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// difference returns the items of a that b lacks, counting repeats.
func difference(a, b []string) []string {
	left := make(map[string]int)
	for _, s := range b {
		left[s]++
	}
	var out []string
	for _, s := range a {
		if left[s] > 0 {
			left[s]--
		} else {
			out = append(out, s)
		}
	}
	return out
}
