package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
