//go:build !js

package mcp

import (
	"context"
	"errors"
	"sync/atomic"
)

// A Transport carries the messages of a [Client] to one server and brings
// back the responses. [CommandTransport] talks to a server process over
// stdio, [HTTPTransport] to an endpoint over Streamable HTTP, and
// [InProcessTransport] to a [Server] in the same process; another transport
// only has to implement these three methods.
//
// A Transport must be safe for concurrent use: a Client calls it from as many
// goroutines as its own caller does.
type Transport interface {
	// Call sends the request m and returns the line of its response: a
	// JSON-RPC response whose id is m.ID. When ctx is done first, Call tells
	// the server that the request is cancelled, in the transport's way, and
	// returns ctx's error. When the connection fails or the server goes
	// away, Call returns an error at once, wrapping [ErrClosed] if the
	// connection is gone.
	Call(ctx context.Context, m *Outgoing) ([]byte, error)
	// Notify sends the notification m, which has no response.
	Notify(ctx context.Context, m *Outgoing) error
	// Close ends the connection. Calls in flight fail; later ones return an
	// error wrapping ErrClosed.
	Close() error
}

// Outgoing is one JSON-RPC message a [Client] sends, as a [Transport]
// receives it: the encoded line, and the facts a transport may need without
// decoding it again (an HTTP transport puts them in headers).
type Outgoing struct {
	// ID is the request's id; 0 for a notification.
	ID int64
	// Method is the JSON-RPC method.
	Method string
	// Name is params.name of tools/call or params.uri of resources/read;
	// "" for other methods.
	Name string
	// Version is the protocol version the message is sent at: the modern
	// version, the negotiated legacy version, or "" before initialization.
	Version string
	// Line is the whole message as JSON, with no trailing newline.
	Line []byte
}

// ErrClosed is wrapped by the error of a call on a connection that is
// closed: by [Client.Close], or by the server going away.
var ErrClosed = errors.New("mcp: connection closed")

// InProcessTransport returns a transport to s in the same process: one
// connection, whose session the transport keeps. Each request is decoded
// and handled by s as a line from a stream would be, with no pipe between
// them, and on the calling goroutine unless the call's context can be
// cancelled. Cancelling a call's context cancels the handler's context
// directly, as notifications/cancelled would.
func InProcessTransport(s *Server) Transport {
	return &inProcess{srv: s}
}

// inProcess is the transport InProcessTransport returns.
type inProcess struct {
	srv    *Server
	ss     session
	closed atomic.Bool
}

func (t *inProcess) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	if t.closed.Load() {
		return nil, ErrClosed
	}
	msg, derr := decode(m.Line)
	if derr != nil {
		return t.srv.fail(derr.id, m.Method, derr.err), nil
	}
	if ctx.Done() == nil {
		return t.srv.handle(ctx, &t.ss, msg), nil
	}
	resp := make(chan []byte, 1)
	go func() { resp <- t.srv.handle(ctx, &t.ss, msg) }()
	select {
	case line := <-resp:
		return line, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (t *inProcess) Notify(ctx context.Context, m *Outgoing) error {
	if t.closed.Load() {
		return ErrClosed
	}
	return nil // the server acts on no notification a Client sends
}

func (t *inProcess) Close() error {
	t.closed.Store(true)
	return nil
}
