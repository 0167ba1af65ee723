// Package inflight keeps the requests of a connection or session whose
// handlers are running, by key, so that a cancellation can reach them.
package inflight

import (
	"context"
	"sync"
)

// Call is a request whose handler is running.
type Call struct {
	cancel    context.CancelFunc
	cancelled bool // by Set.Cancel; guarded by Set.mu
}

// Set holds the running calls by key. The zero value is empty and ready
// to use.
type Set struct {
	mu sync.Mutex
	m  map[string]*Call
}

// Start records that the handler of the request key is running, cancelled
// by cancel, and returns the call for Finish.
func (s *Set) Start(key string, cancel context.CancelFunc) *Call {
	cl := &Call{cancel: cancel}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string]*Call)
	}
	s.m[key] = cl
	return cl
}

// Finish forgets the call Start returned for key, whose handler has
// returned, and reports whether it was cancelled, in which case its
// response is not sent.
func (s *Set) Finish(key string, cl *Call) (cancelled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[key] == cl { // not a later request reusing the key
		delete(s.m, key)
	}
	return cl.cancelled
}

// Cancel cancels the running call of key, if any.
func (s *Set) Cancel(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cl := s.m[key]; cl != nil {
		cl.cancelled = true
		cl.cancel()
	}
}
