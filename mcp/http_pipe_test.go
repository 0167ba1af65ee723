package mcp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// The helpers below serve HTTP in memory, for the tests that run in a
// synctest bubble: a goroutine waiting on a real socket does not count as
// blocked there, so the bubble's clock would never move.

// handlerSend serves a request made by newHTTPRequest with h, in process,
// and returns the response, as httpSend does over the network.
func handlerSend(t *testing.T, h http.Handler, method, body string, hdr map[string]string) mcptest.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newHTTPRequest(t, context.Background(), method, "http://localhost"+DefaultHTTPPath, body, hdr))
	return mcptest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

// pipeListener is a net.Listener whose connections are net.Pipe pairs,
// dialled by its DialContext.
type pipeListener struct {
	conns     chan net.Conn
	closed    chan struct{}
	closeOnce sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// errListenerClosed is what DialContext returns once the listener is
// closed, as a dial to a port no one listens on fails.
var errListenerClosed = errors.New("connection refused: the pipe listener is closed")

// DialContext connects to the listener, as an http.Transport dials.
func (l *pipeListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
	case <-ctx.Done():
	}
	client.Close()
	server.Close()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, errListenerClosed
}

// Accept returns the next connection dialled.
func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close makes Accept and DialContext fail from now on.
func (l *pipeListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return nil
}

// Addr returns the listener's address, which names no network.
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// pipeAddr is a pipeListener's address.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
