//go:build !js

package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// The HTTP headers of the Streamable HTTP transport.
const (
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerSessionID       = "Mcp-Session-Id"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
)

// DefaultHTTPPath is the path of the MCP endpoint when
// [Server.ServeStreamableHTTP] mounts it and [HTTPOptions.Path] is empty.
const DefaultHTTPPath = "/mcp"

// Defaults of the legacy-era session limits.
const (
	// DefaultMaxSessions bounds the legacy sessions open at once.
	DefaultMaxSessions = 10000
	// DefaultSessionIdleTimeout is how long a legacy session lives unused.
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultMaxOrphans bounds the handlers of a legacy session that run
	// on after their client closed the request.
	DefaultMaxOrphans = 16
)

// HTTPOptions configures the Streamable HTTP transport. The zero value is
// ready to use and secure: only loopback origins are allowed, and a server
// listening on a loopback address accepts only loopback Host names.
type HTTPOptions struct {
	// Path is where [Server.ServeStreamableHTTP] mounts the MCP endpoint;
	// other paths are answered 404. The default is [DefaultHTTPPath]. The
	// handler of [Server.HTTPHandler] answers on whatever path it is
	// mounted at.
	Path string
	// AllowedOrigins lists the values of the Origin header accepted besides
	// loopback origins (http or https, localhost, 127.0.0.0/8 or [::1], on any
	// port), which are always accepted. A request with any other Origin is
	// answered 403, as the specification requires against DNS rebinding.
	// A request without an Origin header (not sent by a browser) is accepted.
	AllowedOrigins []string
	// AllowedHosts lists Host header values (with or without a port)
	// accepted by a server listening on a loopback address, besides loopback
	// names. Any other Host is answered 421 Misdirected Request, so that a
	// page whose name resolves to 127.0.0.1 cannot reach a local server.
	// Servers listening on other addresses do not check Host.
	AllowedHosts []string
	// MaxBodyBytes bounds the body of a request; a longer one is answered
	// 413. The default is the server's [Options.MaxLineBytes].
	MaxBodyBytes int64
	// MaxSessions bounds the legacy-era sessions open at once; an initialize
	// beyond it is answered 503 until sessions end or expire. The default is
	// [DefaultMaxSessions].
	MaxSessions int
	// SessionIdleTimeout ends a legacy-era session unused for that long; a
	// request naming it is then answered 404, telling the client to
	// initialize again. The default is [DefaultSessionIdleTimeout].
	SessionIdleTimeout time.Duration
	// MaxOrphans bounds the handlers of one legacy-era session that run on
	// after their client closed the request, which in that era is no
	// cancellation. A handler whose client closes its request beyond it is
	// cancelled, and the server logs that at WARN. The default is
	// [DefaultMaxOrphans].
	MaxOrphans int
	// SessionIDPrefix starts every legacy-era session id, so that a load
	// balancer in front of several processes can send the requests of a
	// session to the process that holds it (deploy/nginx routes on it). It
	// should be short visible ASCII, such as "b1-".
	SessionIDPrefix string
}

// httpHandler is the MCP endpoint over Streamable HTTP.
type httpHandler struct {
	srv      *Server
	opts     HTTPOptions
	sessions *sessionStore
}

// HTTPHandler returns the MCP endpoint as an [http.Handler], to mount at the
// path of your choice. It serves both protocol eras:
//
//   - A POST whose body is a request carrying modern _meta (or whose
//     Mcp-Protocol-Version header is "2026-07-28") is served statelessly.
//     Its Mcp-Protocol-Version, Mcp-Method and Mcp-Name headers must match
//     the body (else 400 with [CodeHeaderMismatch]); an unknown method is
//     404 with [CodeMethodNotFound]; other invalid requests are 400.
//   - A POST of "initialize" opens a legacy session, whose id comes back in
//     the Mcp-Session-Id header; later POSTs must carry it (400 without it,
//     404 once it is unknown, ended or expired) and DELETE ends it.
//
// Every refusal carries a JSON-RPC error in its body. A notification or a
// response is answered 202 with no body; a request, with its JSON-RPC
// response as application/json. GET is answered 405: the server offers no
// stream of its own. A browser page from an allowed origin (see
// [HTTPOptions.AllowedOrigins]) may call the endpoint across origins: its
// CORS preflights are answered, and every response lets it read the body
// and the Mcp-Session-Id header.
//
// A closed request means what its era says. In 2026-07-28, "The server
// MUST treat a client disconnect as cancellation of that request": the
// handler's context is cancelled when the client closes the request (or
// only its sending side), and the request gets no response if the handler
// returns that cancellation (an error that is [context.Canceled]); a
// result it returns anyway is written. Up to 2025-11-25, "Disconnection
// SHOULD NOT be interpreted as the client cancelling its request": the
// handler runs on, and its context is cancelled by notifications/cancelled,
// by the end of the session (DELETE, expiry) and by the shutdown of
// [Server.ServeStreamableHTTP], after which the request gets no response;
// [HTTPOptions.MaxOrphans] bounds such handlers. In both eras a response
// that is ready is written, and when the client had closed its side before,
// the server logs that it did, once, since a write into a connection the
// client has closed may still succeed. opts may be nil.
func (s *Server) HTTPHandler(opts *HTTPOptions) http.Handler {
	h := &httpHandler{srv: s}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = int64(s.opts.MaxLineBytes)
	}
	if h.opts.MaxSessions <= 0 {
		h.opts.MaxSessions = DefaultMaxSessions
	}
	if h.opts.SessionIdleTimeout <= 0 {
		h.opts.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if h.opts.MaxOrphans <= 0 {
		h.opts.MaxOrphans = DefaultMaxOrphans
	}
	h.sessions = newSessionStore(h.opts.MaxSessions, h.opts.SessionIdleTimeout, h.opts.MaxOrphans)
	return h
}

// httpError is a refused HTTP request: the JSON-RPC error its body
// carries, whose row gives the status, the id, method and params of the
// request when they are known, and whether it was refused in the modern
// era (its headers), whose statuses differ.
type httpError struct {
	err    *Error
	id     json.RawMessage
	method string
	params *params // the request's, for Options.Observe
	modern bool
}

// refuse returns the httpError carrying e.
func refuse(e *Error) *httpError { return &httpError{err: e} }

// ServeHTTP checks the peer, answers CORS preflights, and serves POST and
// DELETE; every refusal is answered with its status and JSON-RPC error.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.TransferEncoding != nil {
		// RFC 9112 §6.1: a request with both Transfer-Encoding and
		// Content-Length may be smuggling one request inside another, and
		// its connection must be closed after the response. net/http has
		// removed the Content-Length by now, so every chunked request is
		// treated so; clients send MCP messages whole, with a length.
		w.Header().Set("Connection", "close")
	}
	herr := h.checkPeer(r)
	switch {
	case herr != nil:
	case allowCORS(w, r):
	case r.Method == http.MethodPost:
		herr = h.post(w, r)
	case r.Method == http.MethodDelete && r.Header.Get(headerProtocolVersion) != ModernVersion:
		herr = h.endSession(w, r)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		herr = refuse(errHTTPMethod.error(r.Method))
	}
	if herr != nil {
		h.writeRefusal(w, r, herr)
	}
}

// writeRefusal writes the response refusing r, the one place that does:
// it logs herr and, for a request read as one, passes it to
// Options.Observe.
func (h *httpHandler) writeRefusal(w http.ResponseWriter, r *http.Request, herr *httpError) {
	req := &request{id: herr.id, method: herr.method, params: noParams, modern: herr.modern}
	ctx := context.Background()
	if h.srv.opts.Observe != nil && herr.method != "" {
		p := herr.params
		if p == nil {
			p = noParams
		}
		ctx = h.srv.startObserving(r.Context(), &connState{transport: TransportHTTP}, req, p)
	}
	writeResponse(w, herr.err.httpStatus(herr.modern), h.srv.failRequest(ctx, req, herr.err))
}

// post serves one POSTed message. It returns the refusal of a request that
// could not be read; errors about the message itself are answered here.
func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) *httpError {
	if herr := checkMedia(r); herr != nil {
		return herr
	}
	buf := bodyPool.Get().(*bodyBuffer) // decode copies what it keeps
	defer buf.release()
	body, err := buf.read(w, r, h.opts.MaxBodyBytes)
	var tooLong *http.MaxBytesError
	switch {
	case errors.As(err, &tooLong):
		return refuse(errBodyTooLarge.error(strconv.FormatInt(h.opts.MaxBodyBytes, 10)))
	case err != nil:
		return refuse(errBodyUnreadable.error())
	}
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		return refuse(errHTTPBatch.error())
	}
	m, derr := decode(body)
	if derr != nil {
		return &httpError{err: derr.err, id: derr.id}
	}
	if v := r.Header.Get(headerProtocolVersion); v != "" && !slices.Contains(supportedVersions, v) {
		return &httpError{errUnsupportedVersion.error(supportedVersions, v), m.ID, methodOf(m), m.Params, false}
	}
	if isModern(r, m) {
		return h.serveModern(w, r, m)
	}
	herr := h.serveLegacy(w, r, m)
	if herr != nil && !isResponse(m) {
		herr.id, herr.method, herr.params = m.ID, *m.Method, m.Params
	}
	return herr
}

// isModern reports whether m is served statelessly: a request other than
// initialize that carries a modern protocol version in its header or _meta.
func isModern(r *http.Request, m *message) bool {
	if isResponse(m) || *m.Method == "initialize" {
		return false
	}
	return r.Header.Get(headerProtocolVersion) == ModernVersion || bodyVersion(m) != nil
}

// bodyVersion returns the protocol version in m's _meta, or nil.
func bodyVersion(m *message) *string {
	if m.Params == nil || m.Params.Meta == nil {
		return nil
	}
	return m.Params.Meta.ProtocolVersion
}

// methodOf returns m's method, or "" for a response.
func methodOf(m *message) string {
	if m.Method == nil {
		return ""
	}
	return *m.Method
}

// serveModern serves a stateless request after checking its headers
// against its body, or returns the refusal of headers that do not match.
func (h *httpHandler) serveModern(w http.ResponseWriter, r *http.Request, m *message) *httpError {
	if isNotification(m) {
		w.WriteHeader(http.StatusAccepted) // on HTTP, cancelling is closing the request
		return nil
	}
	if e := checkHeaders(r.Header, m); e != nil {
		return &httpError{e, m.ID, *m.Method, m.Params, true}
	}
	resp, e := h.srv.respond(r.Context(), &connState{transport: TransportHTTP, closeCancels: true}, m)
	if resp == nil {
		panic(http.ErrAbortHandler) // the client closed the request: no response
	}
	h.reply(w, r, e.httpStatus(true), resp, m)
	return nil
}

// reply writes resp, the response to m, which came in r, with status, and
// logs that the client had closed its side of the connection before, when
// net/http saw it do so: the write is tried all the same, since a client
// that only shut down its sending side still reads.
func (h *httpHandler) reply(w http.ResponseWriter, r *http.Request, status int, resp []byte, m *message) {
	writeResponse(w, status, resp)
	if r.Context().Err() != nil {
		h.srv.closedBeforeReply(r.Context(), *m.Method, paramsOf(m), m.ID)
	}
}

// serveLegacy serves a message of the session-based protocol.
func (h *httpHandler) serveLegacy(w http.ResponseWriter, r *http.Request, m *message) *httpError {
	if !isResponse(m) && !isNotification(m) && *m.Method == "initialize" {
		return h.initialize(w, r, m)
	}
	hs, herr := h.session(r)
	if herr != nil {
		return herr
	}
	// A supported Mcp-Protocol-Version other than the negotiated one is no
	// error: the client only SHOULD repeat the negotiated version, and the
	// session answers at it (an unsupported version was refused in post).
	switch {
	case isResponse(m):
		w.WriteHeader(http.StatusAccepted) // the server sends no requests
	case isNotification(m):
		hs.notify(m)
		w.WriteHeader(http.StatusAccepted)
	default:
		resp, e, ok := hs.serve(r, h.srv, m)
		if !ok || resp == nil {
			// Cancelled by notifications/cancelled, the session's end or the
			// server's shutdown: no response is sent, so the connection
			// closes without one.
			panic(http.ErrAbortHandler)
		}
		h.reply(w, r, e.httpStatus(false), resp, m)
	}
	return nil
}

// initialize opens a legacy session and answers the initialize request in
// it. The session is kept only if initialize succeeds.
func (h *httpHandler) initialize(w http.ResponseWriter, r *http.Request, m *message) *httpError {
	id, hs := h.sessions.open(h.opts.SessionIDPrefix)
	if hs == nil {
		w.Header().Set("Retry-After", retryAfterSeconds)
		return refuse(errTooManySessions.error())
	}
	resp, e := h.srv.respond(r.Context(), &hs.connState, m)
	if hs.legacyVersion() == "" {
		h.sessions.end(id)
	} else {
		w.Header().Set(headerSessionID, id)
	}
	writeResponse(w, e.httpStatus(false), resp)
	return nil
}

// retryAfterSeconds is the Retry-After of a refused initialize.
const retryAfterSeconds = "5"

// session returns the legacy session a request names.
func (h *httpHandler) session(r *http.Request) (*httpSession, *httpError) {
	id := r.Header.Get(headerSessionID)
	if id == "" {
		return nil, refuse(errNoSession.error())
	}
	hs := h.sessions.get(id)
	if hs == nil {
		return nil, refuse(errUnknownSession.error())
	}
	return hs, nil
}

// endSession serves DELETE: it ends the session the request names.
func (h *httpHandler) endSession(w http.ResponseWriter, r *http.Request) *httpError {
	if _, herr := h.session(r); herr != nil {
		return herr
	}
	h.sessions.end(r.Header.Get(headerSessionID))
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// jsonContentType is the Content-Type of every response with a body,
// shared by all of them, which net/http only reads.
var jsonContentType = []string{"application/json"}

// writeResponse writes a JSON-RPC response line as the body of an HTTP
// response with the given status.
func writeResponse(w http.ResponseWriter, status int, line []byte) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	w.Write(line)
}

// bodyBuffer is a recycled buffer a request body is read into.
type bodyBuffer struct{ b []byte }

// bodyPool recycles bodyBuffers.
var bodyPool = sync.Pool{New: func() any { return new(bodyBuffer) }}

// maxPooledBody bounds the buffers bodyPool keeps.
const maxPooledBody = 64 << 10

// release returns b to bodyPool, unless it grew too large to keep. The
// body read returned must not be used after it.
func (b *bodyBuffer) release() {
	if cap(b.b) <= maxPooledBody {
		b.b = b.b[:0]
		bodyPool.Put(b)
	}
}

// read reads r's body, at most limit bytes (beyond which the error is an
// *http.MaxBytesError), into b: in one read of the length the request
// declares, when it declares one, else growing b as io.ReadAll does.
func (b *bodyBuffer) read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	if n := r.ContentLength; n > 0 && n <= limit {
		b.b = slices.Grow(b.b[:0], int(n))[:n]
		_, err := io.ReadFull(body, b.b) // net/http ends the body there
		return b.b, err
	}
	b.b = b.b[:0]
	for {
		b.b = slices.Grow(b.b, 512)
		n, err := body.Read(b.b[len(b.b):cap(b.b)])
		b.b = b.b[:len(b.b)+n]
		if err == io.EOF {
			return b.b, nil
		}
		if err != nil {
			return b.b, err
		}
	}
}
