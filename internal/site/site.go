package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Config says what to build.
type Config struct {
	// Root is the repository: directives read the files they include from it.
	Root fs.FS
	// Docs is the docs tree (see the package documentation).
	Docs fs.FS
	// Browser holds the chapters compiled for the browser: with them, each
	// chapter transcript has a Run button, answered inside the page, in a
	// served site and a static one alike. Without them it has none.
	Browser *Browser
}

// Site is a built site.
type Site struct {
	// Files holds every file of the site by its slash-separated path:
	// index.html, tool-errors.html, fr/index.html, assets/style.css...
	Files map[string][]byte
	// Transcripts holds the transcripts the pages include, by [Transcript.Key].
	Transcripts map[string]*Transcript
}

// page is one page in one language, ready for the template.
type page struct {
	src      *source
	url      string // path in the site
	doc      ast.Node
	headings []heading
	// behind, in a translation, lists the English sections it follows an
	// older version of; notes holds the note shown under each one's
	// heading, by id.
	behind []string
	notes  map[string]template.HTML
	// structure is what a translation must keep, read before links are
	// rewritten.
	structure pageStructure
	content   template.HTML
	sections  []searchEntry
}

// Build renders the whole site. It reports every problem it finds: a
// directive that does not resolve, a heading without an id, a translation
// whose headings or directives differ from the English page, a broken link
// or anchor. A problem of one page leaves that page out: Build then returns
// the site of every other page with a [*BuildError] naming the broken ones.
func Build(cfg Config) (*Site, error) {
	langs, err := loadLanguages(cfg.Docs)
	if err != nil {
		return nil, err
	}
	slugs, err := loadOrder(cfg.Docs)
	if err != nil {
		return nil, err
	}
	site := &Site{Files: make(map[string][]byte)}
	modules, err := site.addModules(cfg.Browser)
	if err != nil {
		return nil, err
	}
	md := newMarkdown()
	res := newResolver(cfg.Root, modules)
	broken := make(brokenPages)

	// pages[lang][i] is slugs[i] in lang, or nil if not translated.
	pages := make(map[string][]*page)
	for _, l := range langs {
		for _, slug := range slugs {
			s, err := loadSource(cfg.Docs, slug, l.Code)
			if err != nil { // broken, and named by its slug in the menus
				s = &source{file: slug + "/" + l.Code + ".md", title: slug}
			}
			var p *page
			if s != nil {
				p = &page{src: s, url: pageURL(l.Code, slug)}
			}
			if err != nil {
				broken.add(p, err)
			}
			pages[l.Code] = append(pages[l.Code], p)
		}
	}
	for _, l := range langs {
		res.ui = l.UI
		for i, p := range pages[l.Code] {
			if p == nil || broken.has(p) {
				continue
			}
			if en := pages[SourceLanguage][i]; l.Code != SourceLanguage && !broken.has(en) {
				p.markBehind(en, l.UI["sectionBehind"])
			}
			if err := p.render(md, res, fallback(l.Code, slugs, pages[l.Code])); err != nil {
				broken.add(p, err)
			}
		}
	}
	for _, l := range langs[1:] {
		for i, p := range pages[l.Code] {
			if en := pages[SourceLanguage][i]; p != nil && !broken.has(p) && !broken.has(en) {
				if err := sameStructure(en, p); err != nil {
					broken.add(p, err)
				}
			}
		}
	}

	site.Transcripts = res.transcripts
	tmpl, err := loadTemplate(cfg.Docs)
	if err != nil {
		return nil, err
	}
	for _, l := range langs {
		var index []searchEntry
		for i, p := range pages[l.Code] {
			if p == nil || broken.has(p) {
				continue
			}
			b, err := renderPage(tmpl, langs, l, slugs, pages, i)
			if err != nil {
				broken.add(p, fmt.Errorf("%s: %v", p.src.file, err))
				continue
			}
			site.Files[p.url] = b
			index = append(index, p.sections...)
		}
		js, err := searchScript(index)
		if err != nil {
			return nil, err
		}
		site.Files["assets/search-"+l.Code+".js"] = js
	}
	if err := site.addAssets(cfg.Docs); err != nil {
		return nil, err
	}
	// A link to a broken page is not checked: the page is not there, and
	// says why in the list. A page with a broken link is broken.
	byURL := make(map[string]*page)
	for _, l := range langs {
		for _, p := range pages[l.Code] {
			if p != nil {
				byURL[p.url] = p
			}
		}
	}
	for name, errs := range site.checkLinks(func(file string) bool { return broken.has(byURL[file]) }) {
		p := byURL[name]
		if p == nil {
			return nil, errors.Join(errs...)
		}
		broken.add(p, errors.Join(errs...))
		delete(site.Files, name)
	}
	return site, broken.buildError(langs, pages)
}

// pageURL is where a page goes: English at the top, other languages in a
// folder of their own. Plain file names, so links work from file:// too.
func pageURL(lang, slug string) string {
	if lang == SourceLanguage {
		return slug + ".html"
	}
	return lang + "/" + slug + ".html"
}

// fallback returns the function that rewrites a link of a page in lang to a
// page that lang lacks, so that it leads to the English page instead.
func fallback(lang string, slugs []string, pages []*page) func(dest string) string {
	return func(dest string) string {
		if lang == SourceLanguage || external(dest) {
			return dest
		}
		file, _, _ := strings.Cut(dest, "#")
		if i := slices.Index(slugs, strings.TrimSuffix(file, ".html")); i >= 0 && pages[i] == nil {
			return "../" + dest
		}
		return dest
	}
}

// render parses the page, checks its headings, resolves its directives and
// renders its content; rewrite maps the destination of every link.
func (p *page) render(md goldmark.Markdown, res *resolver, rewrite func(dest string) string) error {
	src := p.src.body
	p.doc = md.Parser().Parse(text.NewReader(src))
	p.structure = structure(p)
	res.slug, res.src, res.rewrite = strings.TrimSuffix(path.Base(p.url), ".html"), src, rewrite
	var errs []error
	err := ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				errs = append(errs, fmt.Errorf("%s: use the title in the front matter, not a level-1 heading", p.src.file))
				break
			}
			id, ok := n.AttributeString("id")
			if !ok {
				errs = append(errs, fmt.Errorf("%s: heading %q has no id ({#some-id})", p.src.file, plainText(n, src)))
				break
			}
			if n.Level <= 3 {
				p.headings = append(p.headings, heading{n.Level, string(id.([]byte)), plainText(n, src)})
			}
			if note, ok := p.notes[string(id.([]byte))]; ok && n.Level == 2 {
				n.Parent().InsertAfter(n.Parent(), n, &noteNode{html: note})
			}
		case *ast.Link:
			n.Destination = []byte(rewrite(string(n.Destination)))
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			joinLine(n, src)
			if t := n.Segment.Value(src); bytes.Contains(t, []byte("**")) || bytes.Contains(t, []byte("__")) {
				errs = append(errs, fmt.Errorf("%s: %q shows its emphasis marks: they did not close (next to a code span in text without spaces, put the particle inside the emphasis)", p.src.file, t))
			}
		case *directiveNode:
			if err := res.resolve(n); err != nil {
				errs = append(errs, fmt.Errorf("%s: :::%s: %v", p.src.file, n.line, err))
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var b bytes.Buffer
	if err := md.Renderer().Render(&b, src, p.doc); err != nil {
		return err
	}
	p.content = template.HTML(b.String())
	p.sections = sections(p)
	return nil
}

// markBehind records which sections of the translation p follow an older
// version of en, and the note to show under each one's heading: say, a
// link to the English section as it is now.
func (p *page) markBehind(en *page, say string) {
	p.behind = behindSections(en.src.sections, p.src.record)
	p.notes = make(map[string]template.HTML)
	for _, id := range p.behind {
		if h := en.heading(id); h != nil {
			p.notes[id] = template.HTML(fmt.Sprintf(`<p class="section-behind" role="note">%s <a href="%s#%s" hreflang="en" lang="en">%s</a></p>`,
				template.HTMLEscapeString(say), relative(p.url, en.url), id, template.HTMLEscapeString(h.Text)))
		}
	}
}

// heading returns the page's heading with the given id, or nil.
func (p *page) heading(id string) *heading {
	for i := range p.headings {
		if p.headings[i].ID == id {
			return &p.headings[i]
		}
	}
	return nil
}

// sameStructure checks that a translation has the English page's heading
// ids and directives, in the same order, and in each section it follows as
// it is now the same code blocks in order, the same code spans and the
// same link destinations (those two in any order, since word order differs
// between languages). A section behind its English text may differ there
// until it is translated again.
func sameStructure(en, tr *page) error {
	ids := func(p *page) []string {
		var s []string
		for _, h := range p.headings {
			s = append(s, h.ID)
		}
		return s
	}
	if a, b := ids(en), ids(tr); !slices.Equal(a, b) {
		return fmt.Errorf("%s: heading ids %v differ from %s's %v", tr.src.file, b, en.src.file, a)
	}
	a, b := en.structure, tr.structure
	if !slices.Equal(a.directives, b.directives) {
		return fmt.Errorf("%s: directives %q differ from %s's %q", tr.src.file, b.directives, en.src.file, a.directives)
	}
	var errs []error
	for _, id := range a.order {
		if slices.Contains(tr.behind, id) {
			continue
		}
		x, y := a.sections[id], b.sections[id]
		for _, d := range []struct {
			what string
			a, b []string
		}{{"code blocks", x.blocks, y.blocks}, {"code spans", x.spans, y.spans}, {"links", x.links, y.links}} {
			lacks, extra := difference(d.a, d.b), difference(d.b, d.a)
			switch {
			case len(lacks)+len(extra) > 0:
				errs = append(errs, fmt.Errorf("%s: section %s: %s differ from %s's: lacks %q, has %q besides", tr.src.file, id, d.what, en.src.file, lacks, extra))
			case !slices.Equal(d.a, d.b):
				errs = append(errs, fmt.Errorf("%s: section %s: %s are %s's in another order", tr.src.file, id, d.what, en.src.file))
			}
		}
	}
	return errors.Join(errs...)
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

// pageStructure is what a translation must keep of its English page.
type pageStructure struct {
	directives []string
	order      []string // section ids, TopSection first
	sections   map[string]*sectionStructure
}

// sectionStructure is the code and links of one section: the code blocks
// in order, the code spans and link destinations sorted.
type sectionStructure struct{ blocks, spans, links []string }

// structure collects the directives of p and the code and links of each of
// its sections.
func structure(p *page) pageStructure {
	src := p.src.body
	ps := pageStructure{order: []string{TopSection}, sections: map[string]*sectionStructure{TopSection: {}}}
	cur := ps.sections[TopSection]
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 2 {
			if id, ok := h.AttributeString("id"); ok {
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
			case *directiveNode:
				ps.directives = append(ps.directives, c.line)
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

// WriteDir writes the site into dir, replacing what a previous build left.
func (s *Site) WriteDir(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, b := range s.Files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// addAssets copies the theme's style sheet and script and writes the code
// colours.
func (s *Site) addAssets(docs fs.FS) error {
	for _, name := range []string{"style.css", "site.js"} {
		b, err := fs.ReadFile(docs, "theme/"+name)
		if err != nil {
			return err
		}
		s.Files["assets/"+name] = b
	}
	css, err := highlightCSS()
	if err != nil {
		return err
	}
	s.Files["assets/code.css"] = css
	return nil
}

// relative returns the path from the folder of page from to target, both
// site paths.
func relative(from, target string) string {
	depth := strings.Count(from, "/")
	return strings.Repeat("../", depth) + target
}

// joinURL resolves a relative link found in page from.
func joinURL(from, link string) string {
	return path.Join(path.Dir(from), link)
}
