//go:build !js

package mcp

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// httpSession is a legacy-era session over HTTP: the state of the
// connection it stands for, and when it was last used.
//
// Up to 2025-11-25 a closed connection is not a cancellation ("Disconnection
// SHOULD NOT be interpreted as the client cancelling its request", says the
// transports page): a handler whose client closes its request runs on, an
// orphan, until it returns or is cancelled by notifications/cancelled, the
// session's end (DELETE, expiry) or the server's shutdown. The session
// bounds its orphans, and while it has any, a timer ends it when it
// expires, since no request may come to find it expired.
type httpSession struct {
	connState
	store    *sessionStore
	id       string
	lastUsed time.Time // guarded by sessionStore.mu

	ended   chan struct{} // closed when the session ends
	endErr  error         // why; set before ended is closed
	orphans int           // handlers running after their client closed; guarded by connState.mu
	expiry  *time.Timer   // armed while orphans > 0; guarded by connState.mu
}

// The causes of a session-era handler's cancellation besides the client's.
var (
	errSessionEnded   = errors.New("the session ended")
	errSessionExpired = errors.New("the session expired")
	errShutdown       = errors.New("the server shut down")
	errTooManyOrphans = errors.New("too many handlers of the session run on after their client closed")
)

// serve handles request m, which came in r, in the session and returns
// its response and the error it carries, if any. It reports false when m
// was cancelled, whose response is then not sent. A handler runs detached
// from r's context, so that the client's closing r does not cancel it
// (see httpSession).
func (hs *httpSession) serve(r *http.Request, srv *Server, m *message) ([]byte, *Error, bool) {
	if !isHandlerMethod(*m.Method) {
		resp, e := srv.respond(r.Context(), &hs.connState, m)
		return resp, e, true
	}
	ctx, cl := hs.track(context.WithoutCancel(r.Context()), m.ID)
	if hs.isEnded() { // ended after the request found it
		cl.cancel(hs.endErr)
	}
	closed := context.AfterFunc(r.Context(), func() { hs.orphan(srv, cl, m) })
	resp, e := srv.respond(ctx, &hs.connState, m)
	closed()
	hs.returned(cl)
	return resp, e, !hs.untrack(cl)
}

// orphan records that the client closed the request m of call cl while its
// handler runs: the handler runs on, unless the session has maxOrphans
// already, in which case it is cancelled and the log says why.
func (hs *httpSession) orphan(srv *Server, cl *call, m *message) {
	hs.mu.Lock()
	if cl.returned {
		hs.mu.Unlock()
		return
	}
	cl.orphaned = true
	hs.orphans++
	over := hs.orphans > hs.store.maxOrphans
	if hs.orphans == 1 {
		hs.watchExpiry()
	}
	hs.mu.Unlock()
	attrs := requestAttrs(*m.Method, paramsOf(m), m.ID)
	if over {
		srv.log.LogAttrs(context.Background(), slog.LevelWarn, "too many handlers run on after their client closed: cancelling this one",
			append(attrs, slog.Int("limit", hs.store.maxOrphans))...)
		cl.cancel(errTooManyOrphans)
		return
	}
	srv.log.LogAttrs(context.Background(), slog.LevelDebug, "the client closed the request; its handler runs on", attrs...)
}

// returned records that the handler of call cl has returned.
func (hs *httpSession) returned(cl *call) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	cl.returned = true
	if cl.orphaned {
		hs.orphans--
	}
}

// watchExpiry arms the timer that ends the session once it has been
// unused for the idle timeout, while orphans run. hs.mu is held.
func (hs *httpSession) watchExpiry() {
	wait := hs.store.untilExpiry(hs)
	if hs.expiry == nil {
		hs.expiry = time.AfterFunc(wait, hs.checkExpiry)
	} else {
		hs.expiry.Reset(wait)
	}
}

// checkExpiry ends the session if it has expired, and otherwise waits for
// its expiry again, while it has orphans.
func (hs *httpSession) checkExpiry() {
	if hs.store.expire(hs) {
		return
	}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.orphans > 0 {
		hs.watchExpiry()
	}
}

// end ends the session with cause: the handlers it runs are cancelled.
// The store has forgotten it.
func (hs *httpSession) end(cause error) {
	hs.mu.Lock()
	if hs.isEnded() {
		hs.mu.Unlock()
		return
	}
	hs.endErr = cause
	close(hs.ended)
	if hs.expiry != nil {
		hs.expiry.Stop()
	}
	hs.mu.Unlock()
	hs.cancelAll(cause)
}

// isEnded reports whether the session has ended.
func (hs *httpSession) isEnded() bool {
	select {
	case <-hs.ended:
		return true
	default:
		return false
	}
}

// paramsOf returns m's params, or noParams.
func paramsOf(m *message) *params {
	if m.Params == nil {
		return noParams
	}
	return m.Params
}

// sessionStore holds the open legacy sessions by id. Its size is capped,
// and a session unused for the idle timeout is gone: found so by get,
// swept when the cap is reached, and ended by its own timer while it has
// orphans (see httpSession). A session that ends cancels its handlers.
// Lock order: a session's mu, then the store's.
type sessionStore struct {
	max        int
	idle       time.Duration
	maxOrphans int

	mu sync.Mutex
	m  map[string]*httpSession
}

// newSessionStore returns an empty store of at most max sessions, each
// ending after idle unused and running at most maxOrphans orphans.
func newSessionStore(max int, idle time.Duration, maxOrphans int) *sessionStore {
	return &sessionStore{max: max, idle: idle, maxOrphans: maxOrphans, m: make(map[string]*httpSession)}
}

// open starts a session and returns its id: prefix, then 26 characters
// drawn by a cryptographic random generator, all visible ASCII. It returns
// nil when the store is full of live sessions.
func (st *sessionStore) open(prefix string) (string, *httpSession) {
	now := time.Now()
	var expired []*httpSession
	defer func() {
		for _, hs := range expired {
			hs.end(errSessionExpired)
		}
	}()
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.m) >= st.max {
		for id, hs := range st.m {
			if now.Sub(hs.lastUsed) > st.idle {
				delete(st.m, id)
				expired = append(expired, hs)
			}
		}
		if len(st.m) >= st.max {
			return "", nil
		}
	}
	id := prefix + rand.Text()
	hs := &httpSession{connState: connState{transport: TransportHTTP}, store: st, id: id, lastUsed: now, ended: make(chan struct{})}
	st.m[id] = hs
	return id, hs
}

// get returns the live session id names, marking it used, or nil.
func (st *sessionStore) get(id string) *httpSession {
	now := time.Now()
	st.mu.Lock()
	hs := st.m[id]
	if hs != nil && now.Sub(hs.lastUsed) > st.idle {
		delete(st.m, id)
		st.mu.Unlock()
		hs.end(errSessionExpired)
		return nil
	}
	if hs != nil {
		hs.lastUsed = now
	}
	st.mu.Unlock()
	return hs
}

// end ends the session id names, if any.
func (st *sessionStore) end(id string) {
	st.mu.Lock()
	hs := st.m[id]
	delete(st.m, id)
	st.mu.Unlock()
	if hs != nil {
		hs.end(errSessionEnded)
	}
}

// endAll ends every session with cause.
func (st *sessionStore) endAll(cause error) {
	st.mu.Lock()
	all := st.m
	st.m = make(map[string]*httpSession)
	st.mu.Unlock()
	for _, hs := range all {
		hs.end(cause)
	}
}

// untilExpiry returns how long hs has left before it expires, unused.
func (st *sessionStore) untilExpiry(hs *httpSession) time.Duration {
	st.mu.Lock()
	defer st.mu.Unlock()
	return max(st.idle-time.Since(hs.lastUsed), 0) + time.Millisecond
}

// expire ends hs if it has expired, and reports whether it has ended.
func (st *sessionStore) expire(hs *httpSession) bool {
	st.mu.Lock()
	held := st.m[hs.id] == hs
	expired := held && time.Since(hs.lastUsed) > st.idle
	if expired {
		delete(st.m, hs.id)
	}
	st.mu.Unlock()
	if expired {
		hs.end(errSessionExpired)
	}
	return !held || expired
}

// len returns the number of sessions held, live or not yet swept.
func (st *sessionStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.m)
}
