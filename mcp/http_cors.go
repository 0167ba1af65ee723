//go:build !js

package mcp

import "net/http"

// corsMaxAge is how long, in seconds, a browser may reuse a preflight's
// answer (the most Chromium honours).
const corsMaxAge = "7200"

// allowCORS lets a page whose Origin checkPeer allowed read the response:
// browser-based clients, such as the Inspector in its direct mode, call the
// endpoint from another origin. It reports whether r is a CORS preflight,
// which it has then answered (204, allowing the headers the page asked to
// send, and POST, DELETE and GET: a client's GET for a stream must reach the
// endpoint to get the 405 that tells it there is none). A request without
// Origin, which no browser sent, gets no CORS headers.
func allowCORS(w http.ResponseWriter, r *http.Request) (preflight bool) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", origin)
	hdr.Add("Vary", "Origin")
	hdr.Set("Access-Control-Expose-Headers", headerSessionID)
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	hdr.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
	if asked := r.Header.Values("Access-Control-Request-Headers"); len(asked) > 0 {
		hdr["Access-Control-Allow-Headers"] = asked
	}
	hdr.Set("Access-Control-Max-Age", corsMaxAge)
	w.WriteHeader(http.StatusNoContent)
	return true
}
