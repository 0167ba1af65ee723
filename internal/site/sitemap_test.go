package site

import (
	"encoding/xml"
	"path"
	"slices"
	"strings"
	"testing"
)

// sitemapXML is a sitemap as its schema (sitemaps.org, 0.9) has it, with
// the xhtml:link elements that name a page's languages.
type sitemapXML struct {
	XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []struct {
		Loc   string `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 loc"`
		Links []struct {
			Rel      string `xml:"rel,attr"`
			Hreflang string `xml:"hreflang,attr"`
			Href     string `xml:"href,attr"`
		} `xml:"http://www.w3.org/1999/xhtml link"`
	} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
}

// checkSitemap checks that sitemap.xml parses in the sitemap's namespaces,
// lists every page of s, in every language, once, by its address under
// base, and names for each every language version of its page, itself
// included, and English as x-default.
func checkSitemap(t *testing.T, s *Site, base string) {
	t.Helper()
	var sm sitemapXML
	if err := xml.Unmarshal(s.Files[sitemapFile], &sm); err != nil {
		t.Fatalf("%s: %v", sitemapFile, err)
	}
	// versions[slug] is the addresses of slug's page in each language.
	versions := make(map[string][]string)
	for name := range s.Files {
		if path.Ext(name) == ".html" {
			slug := strings.TrimSuffix(path.Base(name), ".html")
			versions[slug] = append(versions[slug], base+name)
		}
	}
	var listed []string
	for _, u := range sm.URLs {
		name, ok := strings.CutPrefix(u.Loc, base)
		if !ok || s.Files[name] == nil || path.Ext(name) != ".html" {
			t.Errorf("%s lists %s, not a page under %s", sitemapFile, u.Loc, base)
			continue
		}
		listed = append(listed, name)
		slug := strings.TrimSuffix(path.Base(name), ".html")
		var alts []string
		self := false
		for _, l := range u.Links {
			lang, _, ok := strings.Cut(strings.TrimPrefix(l.Href, base), "/")
			if !ok || l.Hreflang == "x-default" {
				lang = SourceLanguage
			}
			switch {
			case l.Rel != "alternate":
				t.Errorf("%s: %s: a link with rel=%q", sitemapFile, u.Loc, l.Rel)
			case l.Hreflang == "x-default" && l.Href != base+pageURL(SourceLanguage, slug):
				t.Errorf("%s: %s: x-default is %s, not the English page", sitemapFile, u.Loc, l.Href)
			case l.Hreflang != "x-default" && l.Hreflang != lang:
				t.Errorf("%s: %s: hreflang %s for %s", sitemapFile, u.Loc, l.Hreflang, l.Href)
			case l.Hreflang != "x-default":
				alts = append(alts, l.Href)
			}
			self = self || l.Href == u.Loc
		}
		slices.Sort(alts)
		want := slices.Sorted(slices.Values(versions[slug]))
		if !self || !slices.Equal(alts, want) || len(u.Links) != len(want)+1 {
			t.Errorf("%s: %s: alternates %q, want every language of its page %q and x-default", sitemapFile, u.Loc, alts, want)
		}
	}
	var pages []string
	for _, v := range versions {
		for _, u := range v {
			pages = append(pages, strings.TrimPrefix(u, base))
		}
	}
	slices.Sort(pages)
	slices.Sort(listed)
	if !slices.Equal(listed, pages) {
		t.Errorf("%s lists\n%q\nwant every page once\n%q", sitemapFile, listed, pages)
	}
}

// TestSitemap checks the sitemap of a page in seven languages, and that a
// site with no base URL has none.
func TestSitemap(t *testing.T) {
	const base = "https://example.org/a&b/"
	s, err := Build(Config{Root: testRoot(t), Docs: scriptsDocs(t), BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	checkSitemap(t, s, base)
	if !strings.Contains(string(s.Files[sitemapFile]), `<loc>https://example.org/a&amp;b/index.html</loc>`) {
		t.Errorf("%s does not escape its addresses", sitemapFile)
	}
	s = mustBuild(t, en("index", ""))
	if _, ok := s.Files[sitemapFile]; ok {
		t.Errorf("a site with no base URL has a %s", sitemapFile)
	}
	if llms := string(s.Files[llmsFile]); !strings.Contains(llms, "](index.md)") {
		t.Errorf("with no base URL, %s does not link relative to itself:\n%s", llmsFile, llms)
	}
}
