package check

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told to: the timers of a
// silence's bound fire when Advance passes their deadline, and each Reset
// (the transport saw bytes arrive) is signalled on resets.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*fakeTimer
	resets chan struct{}
}

type fakeTimer struct {
	c    *fakeClock
	at   time.Duration
	f    func()
	live bool
}

func newFakeClock() *fakeClock { return &fakeClock{resets: make(chan struct{}, 64)} }

func (c *fakeClock) afterFunc(d time.Duration, f func()) silenceTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now + d, f: f, live: true}
	c.timers = append(c.timers, t)
	return t
}

// Advance moves the clock on by d and runs the timers that fall due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []func()
	for _, t := range c.timers {
		if t.live && t.at <= c.now {
			t.live = false
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	was := t.live
	t.at, t.live = t.c.now+d, true
	t.c.mu.Unlock()
	t.c.resets <- struct{}{}
	return was
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.live
	t.live = false
	return was
}

// TestHTTPWaitBoundsSilence holds -wait over HTTP to what it is over
// stdio: the bound of a silence, not of a whole reply. A reply whose
// pieces each come within -wait is read to its end though it takes longer
// than -wait in all; a server silent for -wait, before its headers or in
// the middle of its body, is not waited for.
func TestHTTPWaitBoundsSilence(t *testing.T) {
	const wait = time.Second // on the fake clock
	reply := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a reply in pieces"}]}}`
	for _, tt := range []struct {
		name    string
		gap     time.Duration // the silence before each piece
		pieces  int           // sent before a silence of -wait; all when 0
		headers bool          // the silence comes before the headers
	}{
		{name: "pieces each within -wait", gap: wait * 3 / 4},
		{name: "silent in the body", gap: wait / 2, pieces: 3},
		{name: "silent before the headers", headers: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body) // so that the server notices the client leave
				if tt.headers {
					clock.Advance(wait)
					<-r.Context().Done()
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				<-clock.resets // the headers arrived
				for i := 0; i < len(reply); i += 10 {
					if tt.pieces > 0 && i == tt.pieces*10 {
						clock.Advance(wait)
						<-r.Context().Done()
						return
					}
					clock.Advance(tt.gap)
					w.Write([]byte(reply[i:min(i+10, len(reply))]))
					w.(http.Flusher).Flush()
					<-clock.resets // the piece arrived
				}
			}))
			defer srv.Close()
			tr := newHTTP(srv.URL, wait)
			tr.afterFunc = clock.afterFunc
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the run's -timeout
			defer cancel()
			got, err := tr.post(ctx, &session{}, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), "tools/list", "", "", false)
			if tt.pieces == 0 && !tt.headers {
				if err != nil || string(got.body) != reply {
					t.Fatalf("got %v, %v; want the whole reply", got, err)
				}
				clock.mu.Lock()
				total := clock.now
				clock.mu.Unlock()
				if total <= wait {
					t.Fatalf("the reply took %v on the clock, not more than -wait", total)
				}
				return
			}
			if !errors.Is(err, errSilence) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v, %v; want the silence's error", got, err)
			}
		})
	}
}
