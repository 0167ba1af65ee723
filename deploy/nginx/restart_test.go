package nginx

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadClients is how many clients keep calling through nginx during the
// rolling restart, each sending its next call when the last is answered.
const loadClients = 4

// A load is a steady modern-era load through nginx: every reply is checked
// against the reply a backend gives directly.
type load struct {
	sent, correct atomic.Int64
	retried       atomic.Int64 // replies nginx got from a second backend it tried
	served        counter      // replies by the backend that gave them

	mu       sync.Mutex
	failures []string // the first few wrong replies
}

// run calls url until ctx is done; want holds the right reply for each
// title.
func (l *load) run(ctx context.Context, url string, want map[string]reply) {
	titles := []string{"Dune", "Nothing"}
	for i := 0; ctx.Err() == nil; i++ {
		title := titles[i%len(titles)]
		body, headers := modernCall(1, title)
		l.sent.Add(1)
		r, err := post(url, body, headers)
		if err == nil && r.status == want[title].status && r.body == want[title].body {
			l.correct.Add(1)
		} else {
			l.mu.Lock()
			if len(l.failures) < 10 {
				l.failures = append(l.failures, fmt.Sprintf("%s: %+v, %v", title, r, err))
			}
			l.mu.Unlock()
		}
		tried := strings.Split(r.upstream, ", ")
		if len(tried) > 1 {
			l.retried.Add(1)
		}
		l.served.add(tried[len(tried)-1])
	}
}

// waitServed waits until backend b has answered more than n replies of
// the load.
func (l *load) waitServed(t *testing.T, b *backend, n int) {
	t.Helper()
	for deadline := time.Now().Add(waitFor); l.served.get(b.addr) <= n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("backend %s answered no call in %v", b.addr, waitFor)
		}
	}
}

// TestRollingRestart: under a steady load through nginx, each backend in
// turn gets SIGTERM, answers what it had accepted, exits with status 0 and
// is started again on its address; every call sent meanwhile gets its
// complete, correct reply.
func TestRollingRestart(t *testing.T) {
	needNginx(t)
	backends := startBackends(t, "01-tool-errors")
	url := startNginx(t, recipe(t), backends)
	want := make(map[string]reply)
	for _, title := range []string{"Dune", "Nothing"} {
		body, headers := modernCall(1, title)
		r, err := post("http://"+backends[0].addr+"/mcp", body, headers)
		if err != nil || r.status != 200 {
			t.Fatalf("direct call for %s: %+v, %v", title, r, err)
		}
		want[title] = r
	}

	var l load
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range loadClients {
		wg.Go(func() { l.run(ctx, url, want) })
	}
	defer func() { stop(); wg.Wait() }()
	for _, b := range backends {
		l.waitServed(t, b, 0)
	}
	var drained []int
	for _, b := range backends {
		before := l.served.get(b.addr)
		b.terminate(t)
		drained = append(drained, l.served.get(b.addr)-before) // answered after SIGTERM
		b.start(t)
		l.waitServed(t, b, l.served.get(b.addr))
	}
	stop()
	wg.Wait()

	sent, correct := l.sent.Load(), l.correct.Load()
	if sent != correct {
		t.Errorf("%d calls sent, %d correct replies; the first wrong:\n%s", sent, correct, strings.Join(l.failures, "\n"))
	}
	t.Logf("%d calls sent during the restart of %d backends, %d correct replies; %d answered by a second backend after the first refused the connection; answered by each backend between its SIGTERM and its exit: %v",
		sent, len(backends), correct, l.retried.Load(), drained)
}
