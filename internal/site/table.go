package site

import (
	"fmt"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// renderTableCell writes a cell of a Markdown table as goldmark does, but
// for one kind of table: one whose top-left header cell is empty labels
// its rows as well as its columns, so the first cell of each body row is
// a row header, <th scope="row">. A screen reader then names both labels
// of a cell, and no data cell is left without a header.
func renderTableCell(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	cell := n.(*extast.TableCell)
	tag, scope, attrs := "td", "", extension.TableTdCellAttributeFilter
	switch {
	case cell.Parent().Kind() == extast.KindTableHeader:
		tag, attrs = "th", extension.TableThCellAttributeFilter
	case cell.PreviousSibling() == nil && labelsRows(cell.Parent().Parent()):
		tag, scope, attrs = "th", ` scope="row"`, extension.TableThCellAttributeFilter
	}
	if !entering {
		fmt.Fprintf(w, "</%s>\n", tag)
		return ast.WalkContinue, nil
	}
	fmt.Fprintf(w, "<%s%s", tag, scope)
	if cell.Alignment != extast.AlignNone {
		fmt.Fprintf(w, ` style="text-align:%s"`, cell.Alignment)
	}
	if cell.Attributes() != nil {
		html.RenderAttributes(w, cell, attrs)
	}
	w.WriteString(">")
	return ast.WalkContinue, nil
}

// labelsRows reports whether table, a Markdown table, has an empty
// top-left header cell.
func labelsRows(table ast.Node) bool {
	if table == nil || table.Kind() != extast.KindTable {
		return false
	}
	header := table.FirstChild()
	return header != nil && header.Kind() == extast.KindTableHeader &&
		header.FirstChild() != nil && header.FirstChild().ChildCount() == 0
}
