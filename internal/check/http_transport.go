package check

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// httpTransport talks to a Streamable HTTP endpoint: each message is a
// POST, in a session (Mcp-Session-Id) once a legacy initialize opened one.
type httpTransport struct {
	url     string
	hc      *http.Client
	wait    time.Duration
	session string
	// afterFunc starts the timer that bounds a silence: time.AfterFunc,
	// or a test's clock.
	afterFunc func(time.Duration, func()) silenceTimer
}

// silenceTimer is the part of *time.Timer a silence's bound uses.
type silenceTimer interface {
	Reset(time.Duration) bool
	Stop() bool
}

// errSilence is the error of a POST that got nothing for -wait.
var errSilence = fmt.Errorf("no reply: %w", context.DeadlineExceeded)

func (t *httpTransport) name() string { return "HTTP" }

func (t *httpTransport) fresh() transport {
	return &httpTransport{url: t.url, hc: t.hc, wait: t.wait, afterFunc: t.afterFunc}
}

// close ends the legacy session, if one was opened.
func (t *httpTransport) close() {
	if t.session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", t.session)
	if resp, err := t.hc.Do(req); err == nil {
		resp.Body.Close()
	}
	t.session = ""
}

// posted is what a POST got back: the status, and the body, cut at
// maxLine.
type posted struct {
	status   int
	body     []byte
	sse      bool
	overlong bool
}

// post sends one message with the headers its era asks for; version is
// the one the message says it is sent at. With closeEarly the request
// is abandoned as soon as the server starts answering: the 2026-07-28
// way to cancel it.
//
// As over stdio, -wait bounds a silence: the wait for the response's
// headers, then each wait for more of its body, which is read to its end
// or to maxLine however long its bytes take; ctx (the run's -timeout)
// bounds the whole. A silence fails the POST with errSilence.
func (t *httpTransport) post(ctx context.Context, s *session, msg []byte, method, name, version string, closeEarly bool) (*posted, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := t.afterFunc(t.wait, func() { cancel(errSilence) })
	defer timer.Stop()
	silent := func(err error) error {
		if err != nil && context.Cause(ctx) == errSilence {
			return errSilence
		}
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	if s.modern && method != "" {
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	if t.session != "" {
		req.Header.Set("Mcp-Session-Id", t.session)
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, silent(err)
	}
	defer resp.Body.Close()
	timer.Reset(t.wait)
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && method == "initialize" {
		t.session = id
	}
	p := &posted{status: resp.StatusCode}
	if closeEarly {
		return p, nil
	}
	typ, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	p.sse = typ == "text/event-stream"
	p.body, err = io.ReadAll(io.LimitReader(arriving{resp.Body, timer, t.wait}, maxLine+1))
	if len(p.body) > maxLine {
		p.body, p.overlong = p.body[:maxLine], true
	}
	return p, silent(err)
}

// arriving reads a body, restarting the bound on silence with each byte.
type arriving struct {
	r     io.Reader
	timer silenceTimer
	wait  time.Duration
}

func (a arriving) Read(b []byte) (int, error) {
	n, err := a.r.Read(b)
	if n > 0 {
		a.timer.Reset(a.wait)
	}
	return n, err
}

// replies returns the JSON-RPC messages a POST's body holds: the body
// itself, or each event of a stream.
func (p *posted) replies() [][]byte {
	if !p.sse {
		if len(bytes.TrimSpace(p.body)) == 0 {
			return nil
		}
		return [][]byte{bytes.TrimSpace(p.body)}
	}
	var out [][]byte
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(p.body))
	sc.Buffer(nil, maxLine+1)
	flush := func() {
		if len(bytes.TrimSpace(data)) > 0 {
			out = append(out, data)
		}
		data = nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		if field, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(field, []byte(" "))...)
		} else if len(line) == 0 {
			flush()
		}
	}
	flush()
	return out
}

func (t *httpTransport) notify(ctx context.Context, s *session, msg []byte, method string) error {
	_, err := t.post(ctx, s, msg, method, "", s.version, false)
	return err
}

func (t *httpTransport) request(ctx context.Context, s *session, msg []byte, method, name string) ([]byte, error) {
	version := s.version
	p, err := t.post(ctx, s, msg, method, name, version, false)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, method, err)
	}
	id, _ := readRequestID(msg)
	for _, r := range p.replies() {
		if got, ok := readResponse(r); ok && got == id {
			return r, nil
		}
	}
	if method == "server/discover" || method == "initialize" {
		// Not the era's server: a status and body with no answer.
		return encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": 0, "message": fmt.Sprintf("HTTP %d", p.status)}}), nil
	}
	return nil, fmt.Errorf("%s: HTTP %d with no JSON-RPC response: %s", method, p.status, shorten(string(p.body), 200))
}

// exchange sends p's messages, each a POST; the first one's response is
// the answer. A probe that a follow-up settles (a body that is not a
// request, a cancellation) is followed by a request the server answers
// at once.
func (t *httpTransport) exchange(ctx context.Context, s *session, p *Probe) *Answer {
	a := &Answer{Version: s.version, HTTP: true, Wait: t.wait.String()}
	for i, m := range p.Lines {
		a.Sent = append(a.Sent, texts(m)...)
		method, name, version := p.Method, p.Name, p.Version
		if i > 0 {
			method, name, version = "notifications/cancelled", "", s.version
		}
		if p.HTTPBody {
			method = ""
		}
		got, err := t.post(ctx, s, m, method, name, version, p.Close && i == 0)
		if i > 0 {
			continue
		}
		var netErr interface{ Timeout() bool }
		switch {
		case errors.As(err, &netErr) && netErr.Timeout(), errors.Is(err, context.DeadlineExceeded):
			// Does it answer anything else?
			follow, method, _ := s.followUp()
			got, err := t.post(ctx, s, follow, method, "", s.version, false)
			a.Next = err == nil && len(got.replies()) > 0
			a.Silent, a.Hung = a.Next && p.owed(), !a.Next
			return a
		case err != nil:
			a.Exit = "the request failed: " + err.Error()
			return a
		}
		a.Status, a.Overlong = got.status, got.overlong
		for _, r := range got.replies() {
			a.Received = append(a.Received, texts(r)...)
			id, isResp := readResponse(r)
			if a.Reply == nil && (p.matches(r, id, isResp) || p.ID == "" && isResp) {
				a.Reply = r
			}
		}
		if len(got.replies()) == 0 && len(got.body) > 0 {
			a.Received = append(a.Received, string(got.body))
		}
		if got.overlong && a.Reply == nil { // its start, cut
			a.Reply = got.body
		}
	}
	if p.Settle || p.Close || p.Lesson == LessonCancellation {
		follow, method, _ := s.followUp()
		got, err := t.post(ctx, s, follow, method, "", s.version, false)
		a.Next = err == nil && len(got.replies()) > 0
		if err != nil && p.Lesson == LessonCancellation {
			a.Hung = true
		}
	}
	return a
}

// newHTTP returns the transport to the endpoint at url.
func newHTTP(url string, wait time.Duration) *httpTransport {
	return &httpTransport{url: url, hc: &http.Client{}, wait: wait, afterFunc: afterFunc}
}

// afterFunc is time.AfterFunc, as a silence's bound uses it.
func afterFunc(d time.Duration, f func()) silenceTimer { return time.AfterFunc(d, f) }
