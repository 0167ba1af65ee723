package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpbookshop/guide/mcp"
)

// The HTTP headers of the Streamable HTTP transport.
const (
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerSessionID       = "Mcp-Session-Id"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
)

// The markers around a base64-encoded header value.
const (
	base64Prefix = "=?base64?"
	base64Suffix = "?="
)

// httpCancelTimeout bounds the notifications/cancelled a legacy-era call
// sends when its context is done, and the DELETE that ends a session.
const httpCancelTimeout = 5 * time.Second

// HTTPError is the error of an HTTP response that carries no JSON-RPC
// message: a server, proxy or load balancer refusing the request.
type HTTPError struct {
	// StatusCode is the HTTP status, such as 404.
	StatusCode int
	// Body is the start of the response body, as text.
	Body string
}

// Error returns the status and the body.
func (e *HTTPError) Error() string {
	return fmt.Sprintf("mcp: HTTP %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Body)
}

// httpErrorBody bounds the body an HTTPError keeps.
const httpErrorBody = 512

// HTTP returns a transport to the MCP endpoint at url, over
// Streamable HTTP: each message is a POST, carrying the headers its era
// requires (Mcp-Protocol-Version, and in the modern era Mcp-Method and
// Mcp-Name; in the legacy era the Mcp-Session-Id that initialize returned).
// A response may come as JSON or as an event stream. A JSON-RPC error in
// the body of any HTTP status is the protocol error of the call or of the
// notification; a status with no JSON-RPC body is an [*HTTPError].
//
// A cancelled call closes its request, which is how Streamable HTTP
// cancels; in the legacy era it also sends notifications/cancelled. When the
// server answers 404 to a session it no longer knows, the call fails with
// an error wrapping [ErrClosed]. Close ends the session with DELETE. hc may
// be nil for [http.DefaultClient].
func HTTP(url string, hc *http.Client) Transport {
	if hc == nil {
		hc = http.DefaultClient
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &httpTransport{url: url, hc: hc, ctx: ctx, cancel: cancel}
}

// httpTransport is the transport HTTP returns.
type httpTransport struct {
	url    string
	hc     *http.Client
	ctx    context.Context // done when the transport is closed
	cancel context.CancelFunc

	mu      sync.Mutex
	session string // Mcp-Session-Id of the legacy session

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

func (t *httpTransport) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	resp, err := t.post(ctx, m)
	if err != nil {
		if ctx.Err() != nil && m.Version != mcp.ModernVersion && m.Method != "initialize" {
			t.cancelRequest(m)
		}
		return nil, err
	}
	defer resp.Body.Close()
	if m.Method == "initialize" && resp.StatusCode == http.StatusOK {
		if id := resp.Header.Get(headerSessionID); id != "" {
			t.mu.Lock()
			t.session = id
			t.mu.Unlock()
		}
	}
	line, err := t.response(resp, m)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return line, err
}

func (t *httpTransport) Notify(ctx context.Context, m *Outgoing) error {
	resp, err := t.post(ctx, m)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		return nil
	}
	line, err := t.response(resp, m)
	if err != nil {
		return err
	}
	var r struct {
		Error *mcp.Error `json:"error"`
	}
	if json.Unmarshal(line, &r) == nil && r.Error != nil {
		return r.Error
	}
	return &HTTPError{StatusCode: resp.StatusCode, Body: string(line[:min(len(line), httpErrorBody)])}
}

// Close ends the legacy session, if any, with DELETE, and fails the calls
// in flight.
func (t *httpTransport) Close() error {
	t.closeOnce.Do(func() {
		t.closed.Store(true)
		t.mu.Lock()
		session := t.session
		t.mu.Unlock()
		if session != "" {
			t.closeErr = t.endSession(session)
		}
		t.cancel()
	})
	return t.closeErr
}

// endSession sends the DELETE that ends a session.
func (t *httpTransport) endSession(session string) error {
	ctx, cancel := context.WithTimeout(t.ctx, httpCancelTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set(headerSessionID, session)
	resp, err := t.hc.Do(req)
	if err != nil {
		return fmt.Errorf("mcp: ending the session: %w", err)
	}
	resp.Body.Close()
	return nil
}

// post sends m. The request is cancelled when ctx is done or the
// transport is closed.
func (t *httpTransport) post(ctx context.Context, m *Outgoing) (*http.Response, error) {
	if t.closed.Load() {
		return nil, ErrClosed
	}
	rctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(t.ctx, cancel)
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, t.url, bytes.NewReader(m.Line))
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if m.Version != "" {
		req.Header.Set(headerProtocolVersion, m.Version)
	}
	if m.Version == mcp.ModernVersion {
		req.Header.Set(headerMethod, m.Method)
		if m.Name != "" {
			req.Header.Set(headerName, encodeHeaderValue(m.Name))
		}
	} else if m.Method != "initialize" {
		t.mu.Lock()
		if t.session != "" {
			req.Header.Set(headerSessionID, t.session)
		}
		t.mu.Unlock()
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		stop()
		cancel()
		if t.closed.Load() {
			return nil, fmt.Errorf("%w: %s", ErrClosed, m.Method)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("mcp: %s: %w", m.Method, err)
	}
	resp.Body = &cancelOnClose{resp.Body, func() { stop(); cancel() }}
	return resp, nil
}

// cancelOnClose releases a request's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	release func()
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// response returns the JSON-RPC response to m that resp carries.
func (t *httpTransport) response(resp *http.Response, m *Outgoing) ([]byte, error) {
	t.mu.Lock()
	session := t.session
	t.mu.Unlock()
	if resp.StatusCode == http.StatusNotFound && session != "" && m.Version != mcp.ModernVersion {
		return nil, fmt.Errorf("%w: the server ended the session (HTTP 404)", ErrClosed)
	}
	typ, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var line []byte
	var err error
	switch typ {
	case "text/event-stream":
		line, err = readEvents(resp.Body, m.ID)
	case "application/json":
		line, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: reading the response: %w", m.Method, err)
	}
	if !isResponse(line) {
		body, _ := io.ReadAll(io.LimitReader(io.MultiReader(bytes.NewReader(line), resp.Body), httpErrorBody))
		return nil, &HTTPError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(body))}
	}
	return line, nil
}

// isResponse reports whether line is a JSON-RPC response.
func isResponse(line []byte) bool {
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	return json.Unmarshal(line, &r) == nil && r.JSONRPC == "2.0" && (r.Result != nil || r.Error != nil)
}

// readEvents reads a server-sent event stream up to the response to the
// request id, skipping the notifications before it, and returns its data.
func readEvents(r io.Reader, id int64) ([]byte, error) {
	want := []byte(fmt.Sprint(id))
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, mcp.DefaultMaxLineBytes)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		if field, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(field, []byte(" "))...)
			continue
		}
		if len(line) > 0 || len(data) == 0 {
			continue // another field, or a comment
		}
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(data, &msg) == nil && bytes.Equal(msg.ID, want) && isResponse(data) {
			return data, nil
		}
		data = nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

// cancelRequest tells a legacy server that m is cancelled, without waiting
// for more than httpCancelTimeout.
func (t *httpTransport) cancelRequest(m *Outgoing) {
	line, err := cancelledLine(m.ID, "the client cancelled the call")
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(t.ctx, httpCancelTimeout)
	defer cancel()
	if resp, err := t.post(ctx, &Outgoing{Method: "notifications/cancelled", Version: m.Version, Line: line}); err == nil {
		resp.Body.Close()
	}
}

// encodeHeaderValue returns s as an Mcp-Name header value: itself when it
// is plain visible ASCII, else in the form "=?base64?...?=".
func encodeHeaderValue(s string) string {
	plain := !strings.HasPrefix(s, base64Prefix) && s == strings.TrimSpace(s)
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain {
		return s
	}
	return base64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + base64Suffix
}
