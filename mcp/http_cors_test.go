package mcp

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHTTPCORS(t *testing.T) {
	ts := httptest.NewServer(newHTTPTestServer(nil, nil).HTTPHandler(nil))
	defer ts.Close()
	const inspector = "http://localhost:6274" // a browser page on a loopback origin
	asked := "content-type,mcp-protocol-version,mcp-session-id"
	preflight := map[string]string{
		"Origin":                         inspector,
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": asked,
	}

	r := httpSend(t, http.MethodOptions, ts.URL, "", preflight)
	if r.Status != http.StatusNoContent || r.Body != "" {
		t.Errorf("preflight: status %d, body %q; want 204 and no body", r.Status, r.Body)
	}
	for k, want := range map[string]string{
		"Access-Control-Allow-Origin":   inspector,
		"Access-Control-Allow-Methods":  "GET, POST, DELETE",
		"Access-Control-Allow-Headers":  asked,
		"Access-Control-Max-Age":        corsMaxAge,
		"Access-Control-Expose-Headers": "Mcp-Session-Id",
		"Vary":                          "Origin",
	} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("preflight %s: %q, want %q", k, got, want)
		}
	}

	// The initialize answer lets the page read the session id.
	r = httpSend(t, http.MethodPost, ts.URL, httpInit, map[string]string{"Origin": inspector})
	if r.Status != http.StatusOK || r.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize from a page: status %d, body %s", r.Status, r.Body)
	}
	if got := r.Header.Get("Access-Control-Allow-Origin"); got != inspector {
		t.Errorf("initialize: Access-Control-Allow-Origin %q, want %q", got, inspector)
	}
	if got := r.Header.Get("Access-Control-Expose-Headers"); got != "Mcp-Session-Id" {
		t.Errorf("initialize: Access-Control-Expose-Headers %q, want Mcp-Session-Id", got)
	}

	// A refusal of an allowed page is readable too: GET is still 405.
	r = httpSend(t, http.MethodGet, ts.URL, "", map[string]string{"Origin": inspector})
	if r.Status != http.StatusMethodNotAllowed || r.Header.Get("Access-Control-Allow-Origin") != inspector {
		t.Errorf("GET from a page: status %d, Access-Control-Allow-Origin %q", r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}

	// A page from another origin gets 403 and no CORS headers, preflight or not.
	evil := map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
	for _, method := range []string{http.MethodOptions, http.MethodPost} {
		r = httpSend(t, method, ts.URL, httpInit, evil)
		if r.Status != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s from another origin: status %d, Access-Control-Allow-Origin %q; want 403 and none",
				method, r.Status, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}

	// No Origin, no CORS headers; OPTIONS that is not a preflight is 405.
	r = httpSend(t, http.MethodPost, ts.URL, httpInit, nil)
	if r.Status != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("initialize without Origin: status %d, Access-Control-Allow-Origin %q", r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}
	r = httpSend(t, http.MethodOptions, ts.URL, "", map[string]string{"Origin": inspector})
	if r.Status != http.StatusMethodNotAllowed {
		t.Errorf("OPTIONS without Access-Control-Request-Method: status %d, want 405", r.Status)
	}
}
