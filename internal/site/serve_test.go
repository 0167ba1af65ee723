package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	s, err := Build(Config{Root: testRoot(t), Docs: testDocs(t, en("index", ":::transcript testdata/scripts/01-demo/demo.txtar ok\n")), Live: true})
	if err != nil {
		t.Fatal(err)
	}
	h := Handler(s, &Runner{Dir: t.TempDir()})
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

	run := func(origin, contentType, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/run", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tt := range []struct {
		origin, contentType, body string
		code                      int
		want                      string
	}{
		{"http://evil.example", "application/json", `{"key":"testdata/scripts/01-demo/demo.txtar#ok"}`, http.StatusForbidden, "same origin"},
		{"", "text/plain", `{"key":"testdata/scripts/01-demo/demo.txtar#ok"}`, http.StatusForbidden, "application/json"},
		{"http://example.com", "application/json", `{"key":"../../secret"}`, http.StatusOK, `"error":"no runnable transcript ../../secret"`},
		{"", "application/json", `{"key":`, http.StatusOK, `"error":"bad request`},
	} {
		w := run(tt.origin, tt.contentType, tt.body)
		if w.Code != tt.code || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("POST /api/run (Origin %q, %s) %s = %d %s, want %d and %q", tt.origin, tt.contentType, tt.body, w.Code, w.Body, tt.code, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	tr := &Transcript{
		Requests: []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
		Replies:  []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`},
	}
	res := compare(tr, tr.Replies)
	if !res.Match || len(res.Exchanges) != 3 || res.Exchanges[1].HTML != "" || !res.Exchanges[1].Same || !res.Exchanges[2].Same {
		t.Errorf("compare with the pinned replies = %+v", res)
	}
	res = compare(tr, []string{tr.Replies[0], `{"jsonrpc":"2.0","id":2,"result":{"x":1}}`})
	if res.Match || !res.Exchanges[0].Same || res.Exchanges[2].Same {
		t.Errorf("compare with a different reply = %+v", res)
	}
}
