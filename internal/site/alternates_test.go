package site

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestAlternates checks that every page says its language on <html> and
// names each of its translations,
// and English as x-default, in rel=alternate links, and marks the
// switcher's links with their language.
func TestAlternates(t *testing.T) {
	s, err := Build(Config{Root: testRoot(t), Docs: scriptsDocs(t)})
	if err != nil {
		t.Fatal(err)
	}
	alternate := regexp.MustCompile(`<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">`)
	switcher := regexp.MustCompile(`<li><a href="([^"]+)" hreflang="([^"]+)" lang="([^"]+)"`)
	for name, b := range s.Files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		up := strings.Repeat("../", strings.Count(name, "/"))
		lang, _, ok := strings.Cut(name, "/")
		if !ok {
			lang = SourceLanguage
		}
		if !strings.Contains(string(b), `<html lang="`+lang+`">`) {
			t.Errorf("%s: no <html lang=%q>", name, lang)
		}
		var got, want []string
		for _, m := range alternate.FindAllSubmatch(b, -1) {
			got = append(got, string(m[1])+" "+string(m[2]))
		}
		for _, m := range switcher.FindAllSubmatch(b, -1) {
			href, lang := string(m[1]), string(m[2])
			if string(m[3]) != lang {
				t.Errorf("%s: the switcher's link to %s says lang=%s", name, lang, m[3])
			}
			want = append(want, lang+" "+href)
			if lang == SourceLanguage {
				want = append(want, "x-default "+href)
			}
			if page := strings.TrimPrefix(href, up); page != pageURL(lang, "index") {
				t.Errorf("%s: the switcher's link to %s is %s", name, lang, href)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) != 8 || !slices.Equal(got, want) {
			t.Errorf("%s: rel=alternate links\n%q\nwant the seven languages and x-default\n%q", name, got, want)
		}
	}
}
