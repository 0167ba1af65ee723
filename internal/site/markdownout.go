package site

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Every page is also written as Markdown beside its HTML (tool-errors.md
// beside tool-errors.html, fr/tool-errors.md beside fr/tool-errors.html),
// for readers that are programs: the page's own Markdown, its title and
// summary first, each directive replaced by what it shows, written as
// Markdown (see markdown), and each link to a page led to that page's
// Markdown, so that a reader who follows it stays in Markdown. Headings
// keep their {#id}, and each transcript is preceded by an anchor of its
// id, so that every link's #anchor names a place in the file it leads to.

// markdownURL returns the path of the Markdown of the page at url.
func markdownURL(url string) string { return strings.TrimSuffix(url, ".html") + ".md" }

// markdownLink leads a relative link to a page, page.html#anchor, to the
// page's Markdown, page.md#anchor.
func markdownLink(link string) string {
	file, anchor, hasAnchor := strings.Cut(link, "#")
	if external(link) || !strings.HasSuffix(file, ".html") {
		return link
	}
	if hasAnchor {
		return markdownURL(file) + "#" + anchor
	}
	return markdownURL(file)
}

// markdown renders the directive n of kind, resolved already to text, as
// Markdown: code in fenced blocks, a transcript as its requests and pinned
// replies pretty-printed in fenced JSON blocks, an error card as a list,
// the error table as a table. Each starts with a line naming where it
// comes from, as the HTML's caption does.
func (r *resolver) markdown(n *directiveNode, kind string, args []string, text string) (string, error) {
	switch kind {
	case "go":
		caption := codeSpan(args[0])
		if names := args[1:]; len(names) > 0 {
			spans := make([]string, len(names))
			for i, name := range names {
				spans[i] = codeSpan(name)
			}
			caption += ": " + strings.Join(spans, ", ")
		}
		return caption + "\n\n" + fence("go", text), nil
	case "example":
		code, output, err := r.exampleSource(args[0], args[1])
		if err != nil {
			return "", err
		}
		return codeSpan(args[0]) + ": " + codeSpan(args[1]) + "\n\n" + fence("go", code) + "\n" +
			r.ui["output"] + ":\n\n" + fence("text", output), nil
	case "transcript":
		return r.transcriptMarkdown(args[0], args[1])
	case "message":
		return codeSpan(args[0]) + ", " + r.ui["producedBy"] + ":\n\n" + fence("text", text), nil
	case "error":
		return r.errorCardMarkdown(args[0], args[1])
	case "errors":
		return r.errorsMarkdown(n, args[0])
	case "sdks":
		return r.sdksMarkdown(n, args[0])
	case "file":
		return codeSpan(args[0]) + "\n\n" + fence(args[1], text), nil
	case "callpath":
		return codeSpan(args[0]) + "\n\n" + fence("text", text), nil
	case "also":
		return codeSpan(args[0]) + ", " + r.ui["alsoRuns"] + ":\n\n" + fence("go", text), nil
	}
	return "", fmt.Errorf("the generator cannot write :::%s as Markdown (add a case to resolver.markdown)", kind)
}

// transcriptMarkdown writes a case of a testscript archive as Markdown:
// an anchor of its id, the archive and the line that checks it, then each
// request and its pinned reply, pretty-printed as the page shows them.
func (r *resolver) transcriptMarkdown(archive, name string) (string, error) {
	t, err := r.loadTranscript(archive, name)
	if err != nil {
		return "", err
	}
	ex, err := t.exchanges()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<a id=\"%s\"></a>%s, %s:\n\n", esc(t.ID()), codeSpan(archive), fmt.Sprintf(r.ui["checkedBy"], codeSpan(t.Check)))
	handshake := 0
	for handshake < len(ex) && isHandshake(ex[handshake].request) {
		handshake++
	}
	for i, e := range ex {
		if handshake > 0 && i == 0 {
			b.WriteString("*" + r.ui["handshake"] + "*\n\n")
		}
		b.WriteString("**" + r.ui["request"] + "**\n\n" + fence("json", pretty(e.request)) + "\n")
		b.WriteString("**" + r.ui["pinned"] + "**\n\n")
		if e.reply != "" {
			b.WriteString(fence("json", pretty(e.reply)) + "\n")
		}
		if note := e.note(); note != "" {
			b.WriteString("*" + r.ui[note] + "*\n\n")
		}
	}
	if len(t.Log) > 0 {
		b.WriteString("**" + r.ui["outcome"] + "**\n\n" + fence("text", strings.Join(t.Log, "\n")) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// errorCardMarkdown writes one row of the error table in dir as a list,
// which away from the reference page links to the row's section there.
func (r *resolver) errorCardMarkdown(dir, name string) (string, error) {
	rows, err := r.errorTable(dir)
	if err != nil {
		return "", err
	}
	row, ok := findRow(rows, name)
	if !ok {
		return "", fmt.Errorf("package %s's error table has no row %q", dir, name)
	}
	what := r.ui["errorRow"]
	if r.slug != referencePage {
		what = "[" + what + "](" + markdownLink(r.rewrite(referencePage+".html#"+name)) + ")"
	}
	label := r.ui["errorMessage"]
	if row.Reply == replyToolResult {
		label = r.ui["errorText"]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s %s:\n\n", codeSpan(dir), what, codeSpan(name))
	fmt.Fprintf(&b, "- %s: %s\n", r.ui["errorCode"], r.codeMarkdown(row))
	fmt.Fprintf(&b, "- %s: %s\n", label, textMarkdown(row.Message))
	fmt.Fprintf(&b, "- %s: %s\n", r.ui["errorData"], textMarkdown(row.Data))
	fmt.Fprintf(&b, "- %s: %s %s · %s %s\n", r.ui["errorHTTP"], r.statusMarkdown(row.Legacy), r.ui["errorLegacy"], r.statusMarkdown(row.Modern), r.ui["errorModern"])
	fmt.Fprintf(&b, "- %s: %s", r.ui["errorLog"], codeSpan(row.Level))
	return b.String(), nil
}

// errorsMarkdown writes the whole error table in dir as a Markdown table,
// each row linking to its section on the page; errorsOverview has checked
// the sections.
func (r *resolver) errorsMarkdown(n *directiveNode, dir string) (string, error) {
	rows, err := r.errorTable(dir)
	if err != nil {
		return "", err
	}
	titles, _ := r.rowSections(n, dir)
	cells := func(c ...string) string {
		for i := range c {
			c[i] = strings.ReplaceAll(c[i], "|", `\|`)
		}
		return "| " + strings.Join(c, " | ") + " |\n"
	}
	var b strings.Builder
	b.WriteString(cells(r.ui["errorRow"], r.ui["errorCode"], r.ui["errorMessage"], r.ui["errorData"],
		r.ui["errorHTTP"]+" "+r.ui["errorLegacy"], r.ui["errorHTTP"]+" "+r.ui["errorModern"]))
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for i := range rows {
		row := &rows[i]
		b.WriteString(cells("["+linkText(titles[row.Name])+"](#"+row.Name+")", r.codeMarkdown(row),
			textMarkdown(row.Message), textMarkdown(row.Data), r.statusMarkdown(row.Legacy), r.statusMarkdown(row.Modern)))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// codeMarkdown is a row's code, as codeHTML shows it.
func (r *resolver) codeMarkdown(row *errorRow) string {
	switch row.Reply {
	case replyToolResult:
		return r.ui["errorToolResult"]
	case replyHandlerError:
		return r.ui["errorFromHandler"]
	case replyNone:
		return "—"
	}
	if row.CodeName != "" {
		return codeSpan(strconv.Itoa(row.Code)) + " (" + codeSpan(row.CodeName) + ")"
	}
	return codeSpan(strconv.Itoa(row.Code))
}

// statusMarkdown is an HTTP status, as statusHTML shows it.
func (r *resolver) statusMarkdown(status int) string {
	switch status {
	case noHTTP:
		return "—"
	case byCode:
		return r.ui["errorByCode"]
	}
	return codeSpan(strconv.Itoa(status))
}

// textMarkdown is a message or data template in code, or a dash for none.
func textMarkdown(s string) string {
	if s == "" {
		return "—"
	}
	return codeSpan(s)
}

// fence returns code in a fenced block marked as lang, its fence longer
// than any run of backticks in the code.
func fence(lang, code string) string {
	f := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	code = strings.TrimRight(code, "\n")
	if code != "" {
		code += "\n"
	}
	return f + lang + "\n" + code + f + "\n"
}

// codeSpan returns s as an inline code span, its delimiters longer than
// any run of backticks in it.
func codeSpan(s string) string {
	n := longestRun(s, '`')
	if n == 0 {
		return "`" + s + "`"
	}
	d := strings.Repeat("`", n+1)
	return d + " " + s + " " + d
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := range len(s) {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// linkText escapes the brackets of text for a link's text.
func linkText(text string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(text)
}

// markdownPage writes page i of language l as Markdown: the title as its
// level-1 heading, the summary, then the page's Markdown with each
// directive replaced by its Markdown (see resolver.markdown) and each link
// to a page led to that page's Markdown; in a translation, a note under
// each section behind its English, as the HTML has; on the landing page,
// the list of pages. rewrite maps a link's destination as it does for the
// HTML (see fallback). With inFull, the page is written for llms-full.txt,
// which holds every page: a link to an anchor of the page itself names the
// page's file too.
func markdownPage(l *Language, slugs []string, pages map[string][]*page, i int, rewrite func(string) string, inFull bool) []byte {
	p := pages[l.Code][i]
	self := ""
	if inFull {
		self = markdownURL(p.url)
	}
	dest := func(d string) string {
		if external(d) {
			return d
		}
		if strings.HasPrefix(d, "#") {
			return self + d
		}
		return markdownLink(rewrite(d))
	}
	notes := behindNotes(l, p, pages[SourceLanguage][i])
	var b strings.Builder
	b.WriteString("# " + p.src.title + "\n\n")
	if p.src.summary != "" {
		b.WriteString(p.src.summary + "\n\n")
	}
	if note, ok := notes[TopSection]; ok {
		b.WriteString(note + "\n\n")
	}
	b.WriteString(strings.Trim(applyEdits(p.body, markdownEdits(p, notes, dest)), "\n"))
	b.WriteString("\n")
	if i == 0 { // the landing page lists the pages, as its HTML does
		b.WriteString(pageList(l, slugs, pages, p))
	}
	return []byte(b.String())
}

// behindNotes returns the note under each section of the translation p
// that is behind its English page en, by the section's id: that the
// section is shown in English, or a link to the English section it is
// behind.
func behindNotes(l *Language, p, en *page) map[string]string {
	notes := make(map[string]string)
	for _, id := range p.behind {
		if p.english[id] {
			notes[id] = "> " + l.UI["sectionInEnglish"]
			continue
		}
		target, title := relativeFile(p.url, markdownURL(en.url)), en.src.title
		if h := en.heading(id); h != nil && id != TopSection {
			target, title = target+"#"+id, h.Text
		}
		notes[id] = "> " + l.UI["sectionBehind"] + " [" + linkText(title) + "](" + target + ")"
	}
	return notes
}

// markdownEdit replaces the bytes from, to of a page's Markdown with text.
type markdownEdit struct {
	from, to int
	text     string
}

// markdownEdits returns the edits that turn page p's Markdown into the
// Markdown written for programs, in the order of the page: each directive
// replaced by its Markdown, each note of notes (see behindNotes) put
// under its section's heading, and each link outside code led where dest
// says.
func markdownEdits(p *page, notes map[string]string, dest func(string) string) []markdownEdit {
	src := p.body
	var edits []markdownEdit
	var keep [][2]int // the spans of code, whose text is not rewritten
	segments := func(n ast.Node) {
		for j := range n.Lines().Len() {
			s := n.Lines().At(j)
			keep = append(keep, [2]int{s.Start, s.Stop})
		}
	}
	ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *directiveNode:
			from, to := lineAround(src, n.at)
			md := rewriteLinks(strings.TrimSuffix(n.md, "\n"), dest)
			edits = append(edits, markdownEdit{from, to, indentLines(md, string(src[from:n.at]))})
			keep = append(keep, [2]int{from, to})
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			segments(n)
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					keep = append(keep, [2]int{t.Segment.Start, t.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			id, ok := n.AttributeString("id")
			if !ok || n.Level != 2 || n.Parent() != p.doc || n.Lines().Len() == 0 {
				break
			}
			if note, ok := notes[string(id.([]byte))]; ok {
				_, to := lineAround(src, n.Lines().At(0).Start)
				text := "\n\n" + note
				if !bytes.HasPrefix(src[to:], []byte("\n\n")) { // a block follows at once
					text += "\n"
				}
				edits = append(edits, markdownEdit{to, to, text})
			}
		}
		return ast.WalkContinue, nil
	})
	edits = append(edits, linkEdits(src, keep, dest)...)
	slices.SortStableFunc(edits, func(a, b markdownEdit) int { return a.from - b.from })
	return edits
}

// linkEdits returns the edits that lead each link destination of src
// where dest says, but for those in the spans of keep.
func linkEdits(src []byte, keep [][2]int, dest func(string) string) []markdownEdit {
	var edits []markdownEdit
	for _, m := range linkDest.FindAllSubmatchIndex(src, -1) {
		from, to := m[2], m[3]
		if slices.ContainsFunc(keep, func(k [2]int) bool { return from < k[1] && to > k[0] }) {
			continue
		}
		if d := string(src[from:to]); dest(d) != d {
			edits = append(edits, markdownEdit{from, to, dest(d)})
		}
	}
	return edits
}

// applyEdits returns src with edits, sorted by where they start, made.
func applyEdits(src []byte, edits []markdownEdit) string {
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.Write(src[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.Write(src[at:])
	return b.String()
}

// pageList returns the landing page's list of the other pages of language
// l, each linked from p to its Markdown with its summary (in English for
// a page l lacks), after a blank line; or "" if there is none.
func pageList(l *Language, slugs []string, pages map[string][]*page, p *page) string {
	list := "\n"
	for j := 1; j < len(slugs); j++ {
		q := pages[l.Code][j]
		if q == nil {
			q = pages[SourceLanguage][j]
		}
		if q == nil {
			continue
		}
		list += "- [" + linkText(q.src.title) + "](" + relativeFile(p.url, markdownURL(q.url)) + ")"
		if q.src.summary != "" {
			list += ": " + q.src.summary
		}
		list += "\n"
	}
	if list == "\n" {
		return ""
	}
	return list
}

// rewriteLinks maps the destination of each inline link of md, outside its
// fenced code blocks, with dest.
func rewriteLinks(md string, dest func(string) string) string {
	var b strings.Builder
	var open string // the fence of the code block the line is in, or ""
	for l := range strings.Lines(md) {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case open != "":
			if strings.HasPrefix(trimmed, open) && strings.TrimSpace(strings.TrimLeft(trimmed, "`")) == "" {
				open = ""
			}
		case strings.HasPrefix(trimmed, "```"):
			open = strings.Repeat("`", len(trimmed)-len(strings.TrimLeft(trimmed, "`")))
		default:
			l = linkDest.ReplaceAllStringFunc(l, func(m string) string { return "](" + dest(m[2:]) })
		}
		b.WriteString(l)
	}
	return b.String()
}

// relativeFile returns the link from page from to target, both site paths:
// the file's name alone in the same folder, else through the top.
func relativeFile(from, target string) string {
	if path.Dir(from) == path.Dir(target) {
		return path.Base(target)
	}
	return relative(from, target)
}

// linkDest matches the destination of an inline link or image, ](dest.
var linkDest = regexp.MustCompile(`\]\(([^)\s]+)`)

// lineAround returns the start of the line that offset at is on in src,
// and its end (the offset of its newline, or the end of src).
func lineAround(src []byte, at int) (from, to int) {
	from = strings.LastIndexByte(string(src[:at]), '\n') + 1
	to = len(src)
	if i := strings.IndexByte(string(src[at:]), '\n'); i >= 0 {
		to = at + i
	}
	return from, to
}

// indentLines writes text in place of a directive whose line starts with
// prefix (spaces, or a container's marks): the first line follows the
// prefix, the others start with it, a list's marks turned into spaces so
// that they stay in the same list item.
func indentLines(text, prefix string) string {
	cont := strings.Map(func(r rune) rune {
		if r == '>' || r == ' ' || r == '\t' {
			return r
		}
		return ' '
	}, prefix)
	lines := strings.Split(text, "\n")
	for i := range lines {
		switch {
		case i == 0:
			lines[i] = prefix + lines[i]
		case lines[i] != "":
			lines[i] = cont + lines[i]
		default:
			lines[i] = strings.TrimRight(cont, " \t")
		}
	}
	return strings.Join(lines, "\n")
}
