package site

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// The files a site offers programs, at its top, besides each page's
// Markdown (see markdownout.go).
const (
	// llmsFile is the index for language models, as the llms.txt
	// convention (llmstxt.org) has it: a level-1 title, a blockquote that
	// sums the site up, a paragraph on how to read it, then sections of
	// "- [Title](url): notes" lists, the last one "Optional".
	llmsFile = "llms.txt"
	// llmsFullFile holds every English page's Markdown, in reading order.
	llmsFullFile = "llms-full.txt"
	// sitemapFile lists every page in every language for search engines
	// (see sitemap.go).
	sitemapFile = "sitemap.xml"
)

// llmsReading is llms.txt's paragraph on how to read the site.
const llmsReading = "Every page below is Markdown, its HTML beside it under the same name ending in .html, " +
	"and each translation sits in a folder named by its language code (fr/tool-errors.md). " +
	"No code, transcript or error text on these pages is typed by hand: each is included from the guide's repository, " +
	"where tests check it, so a transcript's pinned replies are what the chapter's server answers. " +
	"Headings carry their anchors as {#id}."

// ParseBaseURL checks the address a site is published at, which the
// sitemap's addresses and llms.txt's links start with, and returns it
// ending in "/": an absolute http or https URL, with no query or fragment.
func ParseBaseURL(base string) (string, error) {
	u, err := url.Parse(base)
	fix := "give the address the site is published at, such as https://example.org/guide/"
	switch {
	case err != nil:
		return "", fmt.Errorf("base URL %q does not parse (%v): %s", base, err, fix)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("base URL %q is not an absolute http or https address: %s", base, fix)
	case u.Host == "":
		return "", fmt.Errorf("base URL %q names no host: %s", base, fix)
	case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(base, "?") || strings.HasSuffix(base, "#"):
		return "", fmt.Errorf("base URL %q has a query or fragment, which the pages' addresses cannot follow: %s", base, fix)
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base, nil
}

// machineFiles adds llms.txt, llms-full.txt and, given a base URL,
// sitemap.xml to s, of the pages that built: those whose HTML s holds.
func (s *Site) machineFiles(base string, langs []*Language, slugs []string, pages map[string][]*page) {
	built := func(p *page) bool { return p != nil && s.Files[p.url] != nil }
	at := func(name string) string { return base + name }
	en := pages[SourceLanguage]

	var full strings.Builder
	for i, p := range en {
		if !built(p) {
			continue
		}
		if full.Len() > 0 {
			full.WriteString("\n")
		}
		full.Write(markdownPage(langs[0], slugs, pages, i, fallback(SourceLanguage, slugs, en), true))
	}

	var b strings.Builder
	title, summary := langs[0].UI["site"], langs[0].UI["tagline"]
	if built(en[0]) {
		title = en[0].src.title
		if para := firstParagraph(en[0]); para != "" {
			summary = rewriteLinks(para, func(d string) string {
				switch {
				case external(d):
					return d
				case strings.HasPrefix(d, "#"):
					return at(markdownURL(en[0].url)) + d
				}
				return at(markdownLink(joinURL(en[0].url, d)))
			})
		}
	}
	fmt.Fprintf(&b, "# %s\n\n> %s\n\n%s\n\n## Pages\n\n", title, summary, llmsReading)
	for i, p := range en {
		if !built(p) {
			continue
		}
		fmt.Fprintf(&b, "- [%s](%s)", linkText(p.src.title), at(markdownURL(p.url)))
		switch {
		case i == 0:
			b.WriteString(": the landing page: what the guide teaches, and the list of pages")
		case p.src.summary != "":
			b.WriteString(": " + p.src.summary)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Optional\n\n")
	fmt.Fprintf(&b, "- [Every page in one file](%s): the pages above, in English, in this order, as one Markdown file of %d KB\n",
		at(llmsFullFile), (full.Len()+1023)/1024)
	for _, l := range langs[1:] {
		n := 0
		for _, p := range pages[l.Code] {
			if built(p) {
				n++
			}
		}
		if n == 0 || !built(pages[l.Code][0]) {
			continue
		}
		fmt.Fprintf(&b, "- [%s](%s): the guide in this language (%s), %d of its %d pages, each at %s/<page>.md; a section not translated yet is in English\n",
			linkText(l.Name), at(markdownURL(pages[l.Code][0].url)), l.Code, n, len(slugs), l.Code)
	}
	if base != "" {
		fmt.Fprintf(&b, "- [Sitemap](%s): every page in every language, with its translations\n", at(sitemapFile))
	}
	s.Files[llmsFile] = []byte(b.String())
	s.Files[llmsFullFile] = []byte(full.String())
	if base != "" {
		s.Files[sitemapFile] = sitemap(base, langs, slugs, pages, built)
	}
}

// firstParagraph returns the first paragraph of page p's Markdown, on one
// line, or "".
func firstParagraph(p *page) string {
	for n := p.doc.FirstChild(); n != nil; n = n.NextSibling() {
		if para, ok := n.(*ast.Paragraph); ok {
			var lines []string
			for i := range para.Lines().Len() {
				seg := para.Lines().At(i)
				lines = append(lines, strings.TrimSpace(string(seg.Value(p.body))))
			}
			return strings.Join(lines, " ")
		}
	}
	return ""
}
