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
	content  template.HTML
	sections []searchEntry
}

// Build renders the whole site. It reports every problem it finds: a
// directive that does not resolve, a heading without an id, a translation
// whose headings or directives differ from the English page, a broken link
// or anchor.
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
	var errs []error
	fail := func(err error) { errs = append(errs, err) }

	// pages[lang][i] is slugs[i] in lang, or nil if not translated.
	pages := make(map[string][]*page)
	for _, l := range langs {
		for _, slug := range slugs {
			s, err := loadSource(cfg.Docs, slug, l.Code)
			if err != nil {
				fail(err)
			}
			var p *page
			if s != nil {
				p = &page{src: s, url: pageURL(l.Code, slug)}
			}
			pages[l.Code] = append(pages[l.Code], p)
		}
	}
	for _, l := range langs {
		res.ui = l.UI
		for _, p := range pages[l.Code] {
			if p != nil {
				if err := p.render(md, res, fallback(l.Code, slugs, pages[l.Code])); err != nil {
					fail(err)
				}
			}
		}
	}
	for _, l := range langs[1:] {
		for i, p := range pages[l.Code] {
			if en := pages[SourceLanguage][i]; p != nil && en != nil {
				if err := sameStructure(en, p); err != nil {
					fail(err)
				}
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	site.Transcripts = res.transcripts
	tmpl, err := loadTemplate(cfg.Docs)
	if err != nil {
		return nil, err
	}
	for _, l := range langs {
		var index []searchEntry
		for i, p := range pages[l.Code] {
			if p == nil {
				continue
			}
			b, err := renderPage(tmpl, langs, l, slugs, pages, i)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", p.src.file, err)
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
	if err := site.checkLinks(); err != nil {
		return nil, err
	}
	return site, nil
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
		case *ast.Link:
			n.Destination = []byte(rewrite(string(n.Destination)))
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
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

// sameStructure checks that a translation has the English page's heading ids
// and directives, in the same order.
func sameStructure(en, tr *page) error {
	ids := func(p *page) []string {
		var s []string
		for _, h := range p.headings {
			s = append(s, h.ID)
		}
		return s
	}
	directives := func(p *page) []string {
		var s []string
		ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if d, ok := n.(*directiveNode); ok && entering {
				s = append(s, d.line)
			}
			return ast.WalkContinue, nil
		})
		return s
	}
	if a, b := ids(en), ids(tr); !slices.Equal(a, b) {
		return fmt.Errorf("%s: heading ids %v differ from %s's %v", tr.src.file, b, en.src.file, a)
	}
	if a, b := directives(en), directives(tr); !slices.Equal(a, b) {
		return fmt.Errorf("%s: directives %q differ from %s's %q", tr.src.file, b, en.src.file, a)
	}
	return nil
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
