package client

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/mcpbookshop/guide/mcp"
)

// A Transport carries the messages of a [Conn] to one server and brings
// back the responses. [Command] talks to a server process over stdio,
// [HTTP] to an endpoint over Streamable HTTP, and [InProcess] to an
// [mcp.Server] in the same process; another transport only has to
// implement these three methods.
//
// A Transport must be safe for concurrent use: a Conn calls it from as many
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

// Outgoing is one JSON-RPC message a [Conn] sends, as a [Transport]
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
// closed: by [Conn.Close], or by the server going away.
var ErrClosed = errors.New("mcp: connection closed")

// InProcess returns a transport to s in the same process: one connection,
// an [mcp.Session] of s, which the transport keeps. Each message is handed
// to [mcp.Session.Handle], with no pipe in between, on the calling goroutine
// unless the call's context can be cancelled. Cancelling a call's context
// cancels the handler's context directly, as notifications/cancelled would.
func InProcess(s *mcp.Server) Transport {
	return &inProcess{session: s.NewSession()}
}

// inProcess is the transport InProcess returns.
type inProcess struct {
	session *mcp.Session
	closed  atomic.Bool
}

func (t *inProcess) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	if t.closed.Load() {
		return nil, ErrClosed
	}
	if ctx.Done() == nil {
		return t.session.Handle(ctx, m.Line), nil
	}
	resp := make(chan []byte, 1)
	go func() { resp <- t.session.Handle(ctx, m.Line) }()
	select {
	case line := <-resp:
		if line == nil { // the handler saw ctx end first: no response
			return nil, ctx.Err()
		}
		return line, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (t *inProcess) Notify(ctx context.Context, m *Outgoing) error {
	if t.closed.Load() {
		return ErrClosed
	}
	t.session.Handle(ctx, m.Line)
	return nil
}

func (t *inProcess) Close() error {
	t.closed.Store(true)
	return nil
}
