package mcp

import "context"

// Session is one connection to a [Server] whose messages the caller hands
// over one at a time, with no stream in between: the way in for a client in
// the same process (package mcp/client's InProcess), a test, or a transport
// of one's own. It keeps the connection's protocol state, the legacy version
// that initialize negotiates, and is safe for concurrent use.
type Session struct {
	srv *Server
	cs  connState
}

// NewSession returns a new connection to s, not yet initialized.
func (s *Server) NewSession() *Session {
	return &Session{srv: s, cs: connState{transport: TransportDirect}}
}

// Handle serves one JSON-RPC message, as [Server.Serve] serves a line, and
// returns the response line, ending in a newline, or nil for a message that
// has none: a notification, a response, or a request whose ctx ended while
// its handler ran (it was cancelled). Bad input is answered with a
// JSON-RPC error, as on a stream; a batch is not one message and is an
// invalid request. The request runs on the calling goroutine with ctx as
// its handler's context: cancelling ctx is how to cancel it, so
// notifications/cancelled is ignored, as every other notification is.
func (sess *Session) Handle(ctx context.Context, msg []byte) []byte {
	m, derr := decode(msg)
	switch {
	case derr != nil:
		return sess.srv.fail(derr.id, "", derr.err)
	case isResponse(m), isNotification(m):
		return nil
	}
	resp, _ := sess.srv.respond(ctx, &sess.cs, m)
	return resp
}
