package site

import (
	"bytes"
	"encoding/xml"
)

// The namespaces of a sitemap (sitemaps.org, schema 0.9) and of the
// xhtml:link elements that name a page's other languages in it.
const (
	sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"
	xhtmlNS   = "http://www.w3.org/1999/xhtml"
)

// sitemap lists every page that built, in every language, by its absolute
// address under base (which ends in "/"). Each entry names every language
// version of its page, itself included, as an xhtml:link rel="alternate"
// with its hreflang, and English again as x-default, as the pages' own
// heads do.
func sitemap(base string, langs []*Language, slugs []string, pages map[string][]*page, built func(*page) bool) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="` + sitemapNS + `" xmlns:xhtml="` + xhtmlNS + `">` + "\n")
	attr := func(s string) string {
		var e bytes.Buffer
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	for i := range slugs {
		type version struct{ lang, loc string }
		var versions []version
		for _, l := range langs {
			if p := pages[l.Code][i]; built(p) {
				versions = append(versions, version{l.Code, base + p.url})
			}
		}
		if en := pages[SourceLanguage][i]; built(en) {
			versions = append(versions, version{"x-default", base + en.url})
		}
		for _, v := range versions {
			if v.lang == "x-default" {
				continue
			}
			b.WriteString("  <url>\n    <loc>" + attr(v.loc) + "</loc>\n")
			for _, alt := range versions {
				b.WriteString(`    <xhtml:link rel="alternate" hreflang="` + attr(alt.lang) + `" href="` + attr(alt.loc) + `"/>` + "\n")
			}
			b.WriteString("  </url>\n")
		}
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}
