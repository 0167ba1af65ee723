package site

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestHandler(t *testing.T) {
	s := mustBuild(t, en("index", ":::transcript testdata/scripts/01-demo/demo.txtar ok\n"))
	h := Handler(s)
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w
	}
	if w := get("/"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<html") {
		t.Errorf("GET / = %d", w.Code)
	}
	if w := get("/assets/style.css"); w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("GET /assets/style.css = %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	if w := get("/nowhere.html"); w.Code != http.StatusNotFound {
		t.Errorf("GET /nowhere.html = %d, want 404", w.Code)
	}
}

// TestServeBuildPartial builds a site with one broken page and serves it:
// the other pages are served, and the broken one's address shows which
// file is wrong, the problem and the fix, in the site's style.
func TestServeBuildPartial(t *testing.T) {
	s, err := buildPages(t,
		en("index", "Start [here](other.html), or [there](broken.html#wire).\n"),
		en("broken", "## Wire {#wire}\n\n:::go chapters/01-demo/main.go nothingByThatName\n"),
		en("other", "A page that builds.\n"))
	var be *BuildError
	if !errors.As(err, &be) || s == nil {
		t.Fatalf("Build = %v, %v; want a site and a *BuildError", s, err)
	}
	if urls := be.URLs(); !slices.Equal(urls, []string{"broken.html"}) {
		t.Fatalf("BuildError pages = %q, want broken.html alone", urls)
	}
	if errs := be.Page("broken.html"); len(errs) != 1 || errs[0].File != "broken/en.md" || !strings.Contains(errs[0].Error(), "nothingByThatName") {
		t.Errorf("BuildError.Page(broken.html) = %v, want the one problem of broken/en.md, about nothingByThatName", errs)
	}
	if be.Page("other.html") != nil {
		t.Error("BuildError.Page names a page that built")
	}
	if _, ok := s.Files["broken.html"]; ok {
		t.Error("the site has the broken page")
	}
	const head = `<meta name="live-reload" content="build-1">`
	h := ServeBuild(s, err, head)
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w
	}
	for _, path := range []string{"/index.html", "/other.html"} {
		if w := get(path); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<head>\n"+head) {
			t.Errorf("GET %s = %d, want 200 with the head added:\n%.300s", path, w.Code, w.Body.String())
		}
	}
	w := get("/broken.html")
	body := w.Body.String()
	if w.Code != http.StatusInternalServerError || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("GET /broken.html = %d %s, want 500 and a page", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{head, `href="/assets/style.css"`, `src="/assets/site.js"`, "<code>broken/en.md</code>",
		"no declaration named nothingByThatName", "How to fix it", "save: this page reloads itself", `class="build-error"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the broken page's error page lacks %q:\n%s", want, body)
		}
	}
	if w := get("/assets/style.css"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), ".build-error") {
		t.Errorf("GET /assets/style.css = %d, or it does not style the error page", w.Code)
	}
}

// TestBuildBrokenLink checks that a broken link leaves out the page that
// has it, and that the static build's error still names every problem.
func TestBuildBrokenLink(t *testing.T) {
	s, err := buildPages(t, en("index", "Fine.\n"), en("other", "See [nowhere](nowhere.html).\n"))
	var be *BuildError
	if !errors.As(err, &be) || !slices.Equal(be.URLs(), []string{"other.html"}) || be.Page("other.html")[0].File != "other/en.md" {
		t.Fatalf("Build: %v, want other/en.md broken alone", err)
	}
	if !strings.Contains(err.Error(), `other/en.md: section (top): link "nowhere.html": no such file nowhere.html`) {
		t.Errorf("Build: %v, want the broken link named", err)
	}
	if _, ok := s.Files["index.html"]; !ok {
		t.Error("the page without the broken link is left out")
	}
	if _, ok := s.Files["other.html"]; ok {
		t.Error("the page with the broken link is in the site")
	}
}

// TestServeBuildWhole serves a build that failed as a whole: every page's
// address shows the error, in the theme's style.
func TestServeBuildWhole(t *testing.T) {
	docs := testDocs(t, en("index", ""))
	delete(docs, "lang/en.json")
	s, err := Build(Config{Root: testRoot(t), Docs: docs})
	var be *BuildError
	if s != nil || err == nil || errors.As(err, &be) {
		t.Fatalf("Build without lang/en.json = %v, %v; want no site and an error of the whole", s, err)
	}
	h := ServeBuild(ThemeAssets(docs), err, "")
	for _, path := range []string{"/", "/index.html", "/fr/overview.html"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if body := w.Body.String(); w.Code != http.StatusInternalServerError || !strings.Contains(body, "The guide does not build") || !strings.Contains(body, "lang/en.json is missing") {
			t.Errorf("GET %s = %d:\n%s", path, w.Code, body)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/assets/style.css", nil))
	if w.Code != http.StatusOK {
		t.Errorf("GET /assets/style.css = %d, want the theme's style sheet", w.Code)
	}
}

// TestBuildBrokenSources checks the pages whose files do not read: an
// English page listed in pages.txt without its file, and a translation
// without front matter are left out, named by their files, while the
// other pages, their menus included, are built.
func TestBuildBrokenSources(t *testing.T) {
	docs := testDocs(t, en("index", "See [other](other.html).\n"), en("other", "Other.\n"))
	docs["pages.txt"] = &fstest.MapFile{Data: []byte("index\nghost\nother\n")}
	docs["lang/fr.json"] = &fstest.MapFile{Data: docs["lang/en.json"].Data}
	docs["other/fr.md"] = &fstest.MapFile{Data: []byte("Autre, sans front matter.\n")}
	s, err := Build(Config{Root: testRoot(t), Docs: docs})
	var be *BuildError
	if !errors.As(err, &be) || s == nil {
		t.Fatalf("Build = %v; want a site and a *BuildError", err)
	}
	var got []string
	for _, url := range be.URLs() {
		got = append(got, be.Page(url)[0].File+" "+url)
	}
	if want := []string{"ghost/en.md ghost.html", "other/fr.md fr/other.html"}; !slices.Equal(got, want) {
		t.Errorf("broken pages %q, want %q:\n%v", got, want, err)
	}
	if !strings.Contains(err.Error(), "other/fr.md: no front matter") {
		t.Errorf("Build: %v, want the translation's problem named", err)
	}
	for _, name := range []string{"index.html", "other.html"} {
		if page := string(s.Files[name]); !strings.Contains(page, `href="ghost.html"`) {
			t.Errorf("%s does not list the broken page in its menu:\n%.300s", name, page)
		}
	}
}
