package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
)

// link is an entry of the navigation, the language switcher or the
// previous/next links.
type link struct {
	Title   string
	Summary string
	URL     string // relative to the current page
	Current bool
	Lang    string // the lang of the target, when it differs from the page's
	// InEnglish, in the banner, marks a section shown in English.
	InEnglish bool
}

// pageData is what theme/page.html is executed with.
type pageData struct {
	Lang     *Language
	UI       map[string]string
	Title    string
	Root     string // relative path from the page to the site's top
	Markdown string // the page's Markdown, relative to it (tool-errors.md)
	Home     bool   // the landing page
	Nav      []link
	Langs    []link
	TOC      []heading
	Prev     *link
	Next     *link
	Content  template.HTML
	Behind   *behind // set when a translation is behind its English page
	Sections []link  // the landing page's list of pages
}

// behind is the banner of a translation some of whose sections follow an
// older English text.
type behind struct {
	English  link   // the English page
	Name     string // "English", as the language switcher names it
	Sections []link // the sections behind, in this page, each marked if shown in English
}

// loadTemplate parses theme/page.html.
func loadTemplate(docs fs.FS) (*template.Template, error) {
	b, err := fs.ReadFile(docs, "theme/page.html")
	if err != nil {
		return nil, err
	}
	return template.New("page").Parse(string(b))
}

// renderPage executes the template for page i of language l.
func renderPage(tmpl *template.Template, langs []*Language, l *Language, slugs []string, pages map[string][]*page, i int) ([]byte, error) {
	p := pages[l.Code][i]
	en := pages[SourceLanguage]
	// pageIn returns slug j in l, falling back to English.
	pageIn := func(j int) (*page, string) {
		if q := pages[l.Code][j]; q != nil {
			return q, ""
		}
		return en[j], SourceLanguage
	}
	d := &pageData{
		Lang: l, UI: l.UI, Title: p.src.title, Root: relative(p.url, ""),
		Home: i == 0, TOC: p.headings, Content: p.content, Markdown: path.Base(markdownURL(p.url)),
	}
	for j := range slugs {
		var lk link
		if q, lang := pageIn(j); q != nil {
			lk = link{Title: q.src.title, Summary: q.src.summary, URL: relative(p.url, q.url), Current: j == i, Lang: lang}
		} else { // an English page that does not read: listed by its slug
			lk = link{Title: slugs[j], URL: relative(p.url, pageURL(SourceLanguage, slugs[j])), Lang: SourceLanguage}
		}
		if j > 0 {
			d.Nav = append(d.Nav, lk)
		}
		if j == i-1 {
			d.Prev = &lk
		}
		if j == i+1 {
			d.Next = &lk
		}
	}
	if d.Home {
		d.Sections = d.Nav
	}
	for _, other := range langs {
		q := pages[other.Code][i]
		if q == nil {
			continue
		}
		d.Langs = append(d.Langs, link{Title: other.Name, URL: relative(p.url, q.url), Current: other == l, Lang: other.Code})
	}
	if len(p.behind) > 0 {
		d.Behind = &behind{English: link{Title: en[i].src.title, URL: relative(p.url, en[i].url), Lang: SourceLanguage}, Name: langs[0].Name}
		for _, id := range p.behind {
			lk := link{Title: p.src.title, URL: "#content"}
			if h := p.heading(id); h != nil && id != TopSection {
				lk = link{Title: h.Text, URL: "#" + id}
				if p.english[id] {
					lk.Lang = SourceLanguage
				}
			}
			lk.InEnglish = p.english[id]
			d.Behind.Sections = append(d.Behind.Sections, lk)
		}
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("executing theme/page.html: %v", err)
	}
	return b.Bytes(), nil
}
