package site

import (
	"bytes"
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
	// DocsDir is how errors name the docs tree, as in
	// "docs/tool-errors/en.md": the folder Docs is, relative to Root.
	// Empty names the pages as in Docs.
	DocsDir string
	// Browser holds the chapters compiled for the browser: with them, each
	// chapter transcript has a Run button, answered inside the page, in a
	// served site and a static one alike. Without them it has none.
	Browser *Browser
	// BaseURL is the absolute http or https address the site is published
	// at (see [ParseBaseURL]): the sitemap's addresses and llms.txt's links
	// start with it. Empty, the site has no sitemap.xml (a sitemap holds
	// absolute addresses only) and llms.txt links relative to itself.
	BaseURL string
	// Stale holds the transcripts whose chapter no longer gives the
	// pinned replies, by [Transcript.Key]: the guide's server fills it
	// from the check it runs when a chapter changes, and each is marked
	// on its page with the command that refreshes the pins. The static
	// build leaves it nil, and shows no mark.
	Stale map[string]StalePin
}

// Site is a built site.
type Site struct {
	// Files holds every file of the site by its slash-separated path:
	// index.html, tool-errors.html, fr/index.html, assets/style.css...;
	// for programs, each page's Markdown beside it (tool-errors.md,
	// fr/tool-errors.md), llms.txt, llms-full.txt and sitemap.xml.
	Files map[string][]byte
	// Transcripts holds the transcripts the pages include, by [Transcript.Key].
	Transcripts map[string]*Transcript
}

// page is one page in one language, ready for the template.
type page struct {
	src  *source
	lang string
	url  string // path in the site
	// body is the Markdown rendered: the source's, or for a translation,
	// its sections and, for those it cannot show, the English ones (see
	// compose).
	body     []byte
	doc      ast.Node
	headings []heading
	// behind, in a translation, lists the English sections it is behind
	// in, in page order; english holds those of them shown in English.
	behind  []string
	english map[string]bool
	// structure is what a translation must keep of each section: of an
	// English page, read before links are rewritten; of a translation,
	// read from its own text.
	structure pageStructure
	content   template.HTML
	sections  []searchEntry
	// unresolved reports a directive of the page that did not resolve:
	// what it would have shown, an anchor say, is missing.
	unresolved bool
}

// Build renders the whole site. It reports every problem it finds as a
// [*BuildError], returned with the site of every page that did build (so
// that a server can serve those, and the error in place of the others);
// any other error comes with no site. The problems: a directive that does not resolve, a heading without an
// id, a section of a translation, current with its English, whose
// headings, directives, code or links differ from the English section's,
// a broken link or anchor. A translation behind its English page is not a
// problem: its sections behind are marked, and shown in English when
// their own text could not be shown as it is.
func Build(cfg Config) (*Site, error) {
	base := cfg.BaseURL
	if base != "" {
		var err error
		if base, err = ParseBaseURL(base); err != nil {
			return nil, err
		}
	}
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
	res := newResolver(cfg.Root, modules)
	res.docs, res.stale = cfg.Docs, cfg.Stale
	b := &builder{dir: cfg.DocsDir, errs: &BuildError{}}
	pages, byURL := b.loadPages(cfg.Docs, langs, slugs)
	b.renderPages(res, langs, slugs, pages)
	site.Transcripts = res.transcripts
	tmpl, err := loadTemplate(cfg.Docs)
	if err != nil {
		return nil, err
	}
	if err := b.writePages(site, tmpl, langs, slugs, pages); err != nil {
		return nil, err
	}
	if err := site.addAssets(cfg.Docs); err != nil {
		return nil, err
	}
	for _, e := range site.checkLinks(byURL, b.dir, b.errs.URLs()) {
		b.errs.add(e)
	}
	for _, url := range b.errs.URLs() {
		delete(site.Files, url)
		delete(site.Files, markdownURL(url))
	}
	site.machineFiles(base, langs, slugs, pages)
	if len(b.errs.Errors) > 0 {
		return site, b.errs
	}
	return site, nil
}

// loadPages reads every page of the docs tree in every language, and
// returns them by language, pages[lang][i] being slugs[i] in lang, or nil
// if it is not translated, and by URL. A page that cannot be read is a
// problem of the build, and nil.
func (b *builder) loadPages(docs fs.FS, langs []*Language, slugs []string) (map[string][]*page, map[string]*page) {
	pages := make(map[string][]*page)
	byURL := make(map[string]*page)
	for _, l := range langs {
		for _, slug := range slugs {
			s, err := loadSource(docs, slug, l.Code)
			if err != nil {
				b.errs.add(&DocError{File: path.Join(b.dir, slug, l.Code+".md"), Page: slug, Lang: l.Code, Err: strings.TrimPrefix(err.Error(), slug+"/"+l.Code+".md: ")})
			}
			var p *page
			if s != nil {
				p = &page{src: s, lang: l.Code, url: pageURL(l.Code, slug), body: s.body}
				byURL[p.url] = p
			}
			pages[l.Code] = append(pages[l.Code], p)
		}
	}
	return pages, byURL
}

// renderPages renders every page of pages (see render), English first,
// each translation composed with its English page (see compose); a
// translation whose English page does not build is a problem, and is not
// rendered.
func (b *builder) renderPages(res *resolver, langs []*Language, slugs []string, pages map[string][]*page) {
	md := newMarkdown()
	for _, l := range langs {
		for i, p := range pages[l.Code] {
			if p == nil {
				continue
			}
			if l.Code != SourceLanguage {
				en := pages[SourceLanguage][i]
				if en == nil || en.doc == nil {
					b.errs.add(&DocError{File: path.Join(b.dir, p.src.file), Page: p.slug(), Lang: l.Code,
						Err: "not built: its English page does not build (fix that first)", key: "no English"})
					continue
				}
				b.compose(md, p, en)
			}
			b.render(md, res, p, pages[SourceLanguage][i], l.UI, langs[0].UI, fallback(l.Code, slugs, pages[l.Code]))
		}
	}
}

// writePages puts into site every rendered page of pages through the
// template tmpl, its Markdown beside it (see markdownPage), and each
// language's search index, of its pages that have no problem.
func (b *builder) writePages(site *Site, tmpl *template.Template, langs []*Language, slugs []string, pages map[string][]*page) error {
	for _, l := range langs {
		var index []searchEntry
		for i, p := range pages[l.Code] {
			if p == nil {
				continue
			}
			out, err := renderPage(tmpl, langs, l, slugs, pages, i)
			if err != nil {
				b.fail(p, "", err.Error())
				continue
			}
			site.Files[p.url] = out
			site.Files[markdownURL(p.url)] = markdownPage(l, slugs, pages, i, fallback(l.Code, slugs, pages[l.Code]), false)
			if b.errs.Page(p.url) != nil {
				continue // rendered only to have its links checked, then left out
			}
			index = append(index, p.sections...)
		}
		js, err := searchScript(index)
		if err != nil {
			return err
		}
		site.Files["assets/search-"+l.Code+".js"] = js
	}
	return nil
}

// builder collects the problems of a build, each cause once.
type builder struct {
	dir  string // Config.DocsDir
	errs *BuildError
}

// fail records a problem in section id of page p.
func (b *builder) fail(p *page, id, msg string) {
	b.errs.add(&DocError{File: path.Join(b.dir, p.src.file), Page: p.slug(), Lang: p.lang, Section: id, Err: msg})
}

// slug returns the page's slug.
func (p *page) slug() string { return path.Dir(p.src.file) }

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

// render parses the page's body, checks its headings, resolves its
// directives and renders its content; rewrite maps the destination of
// every link. ui is the interface strings of the page's language, enUI
// English's, for the sections a translation shows in English; en is the
// English page, rendered already (p itself for an English page).
func (b *builder) render(md goldmark.Markdown, res *resolver, p, en *page, ui, enUI map[string]string, rewrite func(dest string) string) {
	src := p.body
	p.doc = md.Parser().Parse(text.NewReader(src))
	if p.lang == SourceLanguage {
		p.structure = structure(p.doc, src)
	} else {
		p.annotate(en, ui)
	}
	res.slug, res.src, res.rewrite, res.ui = p.slug(), src, rewrite, ui
	res.lang = p.lang
	id := TopSection // the section being walked
	fail := func(msg string) { b.fail(p, id, msg) }
	ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *wrapNode:
			res.ui, res.lang = ui, p.lang
			if n.open {
				res.ui, res.lang = enUI, SourceLanguage
			}
		case *ast.Heading:
			hid, ok := n.AttributeString("id")
			if ok && n.Level == 2 && n.Parent() == p.doc {
				id = string(hid.([]byte))
			}
			text := plainText(n, src)
			if n.Level == 1 {
				fail(fmt.Sprintf("level-1 heading %q: the title comes from the front matter (title:), and is the page's only level-1 heading; make this one ## or lower", text))
				break
			}
			if !ok {
				fail(fmt.Sprintf("heading %q has no id: end its line with {#%s}, the id every language gives it and links use", text, suggestID(text)))
				break
			}
			n.SetAttributeString(anchorLabel, res.ui["anchorLink"])
			if n.Level <= 3 {
				p.headings = append(p.headings, heading{n.Level, string(hid.([]byte)), text})
			}
		case *ast.Link:
			n.Destination = []byte(rewrite(string(n.Destination)))
		case *ast.CodeSpan:
			keepWhole(n, src)
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			joinLine(n, src)
			if t := n.Segment.Value(src); bytes.Contains(t, []byte("**")) || bytes.Contains(t, []byte("__")) {
				fail(fmt.Sprintf("%q shows its emphasis marks: they did not close (next to a code span in text without spaces, put the particle inside the emphasis)", t))
			}
		case *directiveNode:
			if err := res.resolve(n); err != nil {
				kind, _, _ := strings.Cut(n.line, " ")
				// resolve names the directive's kind, which the line names already.
				fail(fmt.Sprintf(":::%s: %s", n.line, strings.TrimPrefix(err.Error(), kind+": ")))
				p.unresolved = true
			}
		}
		return ast.WalkContinue, nil
	})
	// A page with problems is checked and rendered all the same, so that
	// one build reports all of them: its code spans and its walk through
	// the core here, its links once
	// every page is rendered.
	if p.lang == SourceLanguage {
		res.checkCodeSpans(p, p.unresolved, func(section, msg string) { b.fail(p, section, msg) })
		res.checkWalk(p, func(section, msg string) { b.fail(p, section, msg) })
	}
	var out bytes.Buffer
	if err := md.Renderer().Render(&out, src, p.doc); err != nil {
		b.fail(p, "", err.Error())
		return
	}
	p.content = template.HTML(out.String())
	p.sections = sections(p)
}

// suggestID returns an id for a heading that has none: its words in lower
// case, joined by "-", or "some-id" if it has no ASCII words.
func suggestID(heading string) string {
	words := strings.FieldsFunc(strings.ToLower(heading), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
	if len(words) == 0 {
		return "some-id"
	}
	return strings.Join(words, "-")
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
