package site

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// runRequest is the body of a POST to /api/run.
type runRequest struct {
	Key string `json:"key"`
}

// liveExchange is one request's live reply, as the page shows it.
type liveExchange struct {
	HTML string `json:"html"` // the highlighted reply; "" for none
	Same bool   `json:"same"` // byte for byte the pinned reply
}

// runResponse answers a POST to /api/run.
type runResponse struct {
	Exchanges []liveExchange `json:"exchanges,omitempty"`
	Match     bool           `json:"match"`
	Error     string         `json:"error,omitempty"`
}

// Handler serves a built site, and at /api/run runs one of its transcripts
// against the chapter's real server: POST {"key": <Transcript.Key>}.
func Handler(s *Site, runner *Runner) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/run", func(w http.ResponseWriter, req *http.Request) {
		if !sameOrigin(req) || req.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "runs are for the guide's own pages: same origin, application/json", http.StatusForbidden)
			return
		}
		var rr runRequest
		var res runResponse
		var t *Transcript
		if err := json.NewDecoder(req.Body).Decode(&rr); err != nil {
			res.Error = "bad request: " + err.Error()
		} else if t = s.Transcripts[rr.Key]; t == nil || t.Chapter == "" {
			res.Error = "no runnable transcript " + rr.Key
		} else if live, err := runner.Run(req.Context(), t); err != nil {
			res.Error = err.Error()
		} else {
			res = compare(t, live)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(res)
	})
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

// compare pairs live replies with t's requests and says which equal the
// pinned ones.
func compare(t *Transcript, live []string) runResponse {
	res := runResponse{Match: slices.Equal(live, t.Replies)}
	pinned, _ := t.exchanges()
	for _, e := range pinned {
		got := ""
		if e.reply != "" && len(live) > 0 {
			got, live = live[0], live[1:]
		}
		x := liveExchange{Same: got == e.reply}
		if got != "" {
			x.HTML = string(highlight("json", pretty(got)))
		}
		res.Exchanges = append(res.Exchanges, x)
	}
	return res
}

// sameOrigin reports whether a request comes from a page of the server
// itself: it has no Origin header, or one naming the request's host. It
// keeps other sites' pages from starting the chapters' servers.
func sameOrigin(req *http.Request) bool {
	origin := req.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == req.Host
}
