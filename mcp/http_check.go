//go:build !js

package mcp

import (
	"encoding/base64"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// checkPeer guards against DNS rebinding: it refuses a request from a
// browser page whose Origin is not allowed (403) and, on a server listening
// on a loopback address, a request whose Host is not a loopback name or an
// allowed host (421).
func (h *httpHandler) checkPeer(r *http.Request) *httpError {
	if origin := r.Header.Get("Origin"); origin != "" && !h.originAllowed(origin) {
		return refuse(errOrigin.error(origin))
	}
	if onLoopback(r) && !h.hostAllowed(r.Host) {
		return refuse(errHost.error(r.Host))
	}
	return nil
}

// originAllowed reports whether a browser page at origin may call the server.
func (h *httpHandler) originAllowed(origin string) bool {
	if slices.Contains(h.opts.AllowedOrigins, origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && isLoopbackName(u.Hostname())
}

// hostAllowed reports whether a loopback server answers to host.
func (h *httpHandler) hostAllowed(host string) bool {
	if slices.Contains(h.opts.AllowedHosts, host) {
		return true
	}
	name := host
	if n, _, err := net.SplitHostPort(host); err == nil {
		name = n
	}
	return slices.Contains(h.opts.AllowedHosts, name) || isLoopbackName(strings.Trim(name, "[]"))
}

// onLoopback reports whether the request came in on a loopback address.
func onLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	return ok && addr.IP.IsLoopback()
}

// isLoopbackName reports whether a host name without port is localhost or
// a loopback IP address.
func isLoopbackName(name string) bool {
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// usualAccept is the Accept header most clients send.
const usualAccept = "application/json, text/event-stream"

// checkMedia checks a POST's Accept header (406 unless it accepts both
// application/json and text/event-stream) and Content-Type (415 unless it
// is application/json).
func checkMedia(r *http.Request) *httpError {
	accept, ctype := r.Header["Accept"], r.Header["Content-Type"]
	if len(accept) == 1 && accept[0] == usualAccept && len(ctype) == 1 && ctype[0] == "application/json" {
		return nil // what clients send, checked without parsing
	}
	var json, sse bool
	for _, v := range accept {
		for part := range strings.SplitSeq(v, ",") {
			typ, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(typ)) {
			case "*/*":
				json, sse = true, true
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				sse = true
			}
		}
	}
	if !json || !sse {
		return refuse(errAccept.error())
	}
	if typ, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || typ != "application/json" {
		return refuse(errContentType.error())
	}
	return nil
}

// checkHeaders checks the headers a stateless request must carry against
// its body: Mcp-Protocol-Version against _meta's protocol version,
// Mcp-Method against the method, and Mcp-Name against the tool name or
// resource URI.
func checkHeaders(hdr http.Header, m *message) *Error {
	body := ""
	if v := bodyVersion(m); v != nil {
		body = *v
	}
	if e := matchHeader(hdr, headerProtocolVersion, body, false); e != nil {
		return e
	}
	if e := matchHeader(hdr, headerMethod, *m.Method, false); e != nil {
		return e
	}
	var name *string
	switch *m.Method {
	case "tools/call", "prompts/get":
		name = m.Params.Name
	case "resources/read":
		name = m.Params.URI
	default:
		return nil
	}
	if name == nil {
		return nil // the body lacks it: the method's own error says so
	}
	return matchHeader(hdr, headerName, *name, true)
}

// matchHeader returns the header-mismatch error when the header key is
// missing or differs from the body's value. A header that may be encoded is
// decoded first from the form "=?base64?...?=".
func matchHeader(hdr http.Header, key, body string, encoded bool) *Error {
	values := hdr.Values(key)
	if len(values) == 0 {
		return errHeaderMissing.error(key)
	}
	got := values[0]
	if encoded {
		if b64, ok := strings.CutPrefix(got, base64Prefix); ok {
			if b64, ok = strings.CutSuffix(b64, base64Suffix); ok {
				dec, err := base64.StdEncoding.DecodeString(b64)
				if err != nil {
					return errHeaderBase64.error(key)
				}
				got = string(dec)
			}
		}
	}
	if len(values) > 1 || got != body {
		return errHeaderMismatch.error(key, got, body)
	}
	return nil
}

// The markers around a base64-encoded header value.
const (
	base64Prefix = "=?base64?"
	base64Suffix = "?="
)
