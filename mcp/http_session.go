//go:build !js

package mcp

import (
	"context"
	"crypto/rand"
	"sync"
	"time"
)

// httpSession is a legacy-era session over HTTP: the state of the
// connection it stands for, and when it was last used.
type httpSession struct {
	connState
	lastUsed time.Time // guarded by sessionStore.mu
}

// serve handles request m in the session and returns its response and the
// error it carries, if any. It reports false when notifications/cancelled
// cancelled m, whose response is then not sent.
func (hs *httpSession) serve(ctx context.Context, srv *Server, m *message) ([]byte, *Error, bool) {
	if !isHandlerMethod(*m.Method) {
		resp, e := srv.respond(ctx, &hs.connState, m)
		return resp, e, true
	}
	ctx, cl := hs.track(ctx, m.ID)
	resp, e := srv.respond(ctx, &hs.connState, m)
	return resp, e, !hs.untrack(cl)
}

// sessionStore holds the open legacy sessions by id. Its size is capped,
// and a session unused for the idle timeout is gone: found so by get, and
// swept when the cap is reached. No goroutine runs in the background.
type sessionStore struct {
	max  int
	idle time.Duration

	mu sync.Mutex
	m  map[string]*httpSession
}

// newSessionStore returns an empty store of at most max sessions, each
// ending after idle unused.
func newSessionStore(max int, idle time.Duration) *sessionStore {
	return &sessionStore{max: max, idle: idle, m: make(map[string]*httpSession)}
}

// open starts a session and returns its id: prefix, then 26 characters
// drawn by a cryptographic random generator, all visible ASCII. It returns
// nil when the store is full of live sessions.
func (st *sessionStore) open(prefix string) (string, *httpSession) {
	now := time.Now()
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.m) >= st.max {
		for id, hs := range st.m {
			if now.Sub(hs.lastUsed) > st.idle {
				delete(st.m, id)
			}
		}
		if len(st.m) >= st.max {
			return "", nil
		}
	}
	id := prefix + rand.Text()
	hs := &httpSession{connState: connState{transport: TransportHTTP}, lastUsed: now}
	st.m[id] = hs
	return id, hs
}

// get returns the live session id names, marking it used, or nil.
func (st *sessionStore) get(id string) *httpSession {
	now := time.Now()
	st.mu.Lock()
	defer st.mu.Unlock()
	hs := st.m[id]
	if hs == nil {
		return nil
	}
	if now.Sub(hs.lastUsed) > st.idle {
		delete(st.m, id)
		return nil
	}
	hs.lastUsed = now
	return hs
}

// end ends a session.
func (st *sessionStore) end(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.m, id)
}

// len returns the number of sessions held, live or not yet swept.
func (st *sessionStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.m)
}
