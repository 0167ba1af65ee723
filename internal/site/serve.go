package site

import (
	"mime"
	"net/http"
	"path"
	"strings"
)

// Handler serves a built site as a static host would: the Run buttons need
// nothing more.
func Handler(s *Site) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, req *http.Request) {
		name := strings.TrimPrefix(path.Clean(req.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		b, ok := s.Files[name]
		if !ok {
			if _, ok := s.Files[name+"/index.html"]; ok {
				http.Redirect(w, req, "/"+name+"/index.html", http.StatusFound)
				return
			}
			http.NotFound(w, req)
			return
		}
		if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(b)
	})
	return mux
}
