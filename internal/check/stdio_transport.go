package check

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// stdioTransport talks to a server command over stdio, starting it again
// when it died or hung: each probe gets a live server.
type stdioTransport struct {
	argv   []string
	wait   time.Duration // the bound on the wait for a reply
	start  time.Duration // the bound on the first reply of a process, which may build first
	proc   *stdio
	needed bool // the process was replaced: the session must open again
	fresh0 bool // no reply has come from this process yet

	// pings holds the ids of the pings sent after an era's opening request
	// (compact JSON) whose answers may still come: they answer nothing.
	pings    map[string]bool
	lastPing int
}

func (t *stdioTransport) name() string { return "stdio" }

func (t *stdioTransport) fresh() transport {
	return &stdioTransport{argv: t.argv, wait: t.wait, start: t.start}
}

// ensure starts the server if none runs.
func (t *stdioTransport) ensure() error {
	if t.proc != nil {
		return nil
	}
	p, err := startStdio(t.argv)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	t.proc, t.fresh0 = p, true
	return nil
}

// bound returns the wait for the next reply.
func (t *stdioTransport) bound() time.Duration {
	if t.fresh0 {
		return t.start
	}
	return t.wait
}

// drop stops a server that hung or died, so that the next use starts a
// new one.
func (t *stdioTransport) drop() {
	if t.proc != nil {
		t.proc.stop(false)
		t.proc, t.needed = nil, true
	}
}

// close stops the server, giving it a moment to exit on its own.
func (t *stdioTransport) close() {
	if t.proc != nil {
		t.proc.stop(true)
		t.proc = nil
	}
}

func (t *stdioTransport) notify(ctx context.Context, s *session, msg []byte, method string) error {
	if err := t.ensure(); err != nil {
		return err
	}
	return t.proc.write(ctx, msg)
}

// request sends a request of the check's own and waits for its reply. The
// request that opens an era (server/discover, initialize) may get none from
// a server of the other era that ignores the methods it does not know: a
// ping follows it (allowed before initialize in the session era, and
// answered, if only with an error, in 2026-07-28). Once the ping is
// answered the server is up, and the opening request gets the bound on any
// reply, wait, not the longer one on a process's first reply; past it, it
// got none (errNoReply). A server may answer the ping first and still
// answer the request: one that handles requests concurrently does.
func (t *stdioTransport) request(ctx context.Context, s *session, msg []byte, method, name string) ([]byte, error) {
	if err := t.ensure(); err != nil {
		return nil, err
	}
	id, _ := readRequestID(msg)
	opening := method == "server/discover" || method == "initialize"
	fail := func(err error) ([]byte, error) {
		t.drop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, method, err)
	}
	if err := t.proc.write(ctx, msg); err != nil {
		return fail(err)
	}
	if opening {
		if err := t.ping(ctx); err != nil {
			return fail(err)
		}
	}
	timer := time.NewTimer(t.bound())
	up := false // the ping was answered
	defer timer.Stop()
	for {
		select {
		case r, ok := <-t.proc.lines:
			if !ok {
				<-t.proc.exited
				err := fmt.Errorf("%w: %s: the server exited: %s", ErrUnreachable, method, t.proc.exitText())
				t.drop()
				return nil, err
			}
			got, isResp := readResponse(r.line)
			switch {
			case isResp && got == id:
				t.fresh0 = false
				return r.line, nil
			case isResp && t.pings[got]:
				delete(t.pings, got)
				t.fresh0 = false
				if opening && !up {
					up = true
					timer.Reset(t.wait)
				}
			}
		case <-timer.C:
			if up {
				return nil, fmt.Errorf("%w to %s within %v, though the server answered a ping sent after it", errNoReply, method, t.wait)
			}
			t.drop()
			return nil, fmt.Errorf("%w: %s: no reply within %v", ErrUnreachable, method, t.bound())
		case <-ctx.Done():
			t.drop()
			return nil, ctx.Err()
		}
	}
}

// ping sends a ping of the session era's kind (no _meta), whose answer
// tells that the server is up while an era's opening request waits.
func (t *stdioTransport) ping(ctx context.Context) error {
	t.lastPing++
	id := fmt.Sprintf(`"mcpc-check-ping-%d"`, t.lastPing)
	if t.pings == nil {
		t.pings = map[string]bool{}
	}
	t.pings[id] = true
	return t.proc.write(ctx, encode(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "ping"}))
}

// settleFollowUps is how many requests, one after the other, a server may
// answer before the reply to a message that may have none (a line that is
// not JSON, an invalid request, a batch) counts as none: a server that
// handles messages concurrently may answer a quick follow-up first.
const settleFollowUps = 3

// exchange sends p's messages and then a request that the server answers
// at once (ping or server/discover). For a message that may get no reply,
// the follow-ups settle it: once settleFollowUps were answered before any
// reply, there is none. A request, which is owed a reply, waits for it up
// to the bound, wait, while the follow-up shows whether the server still
// answers anything; so does a server that answers nothing at all.
func (t *stdioTransport) exchange(ctx context.Context, s *session, p *Probe) *Answer {
	a := &Answer{Version: s.version, Wait: t.wait.String()}
	if err := t.ensure(); err != nil {
		a.Exit = err.Error()
		return a
	}
	if t.needed {
		t.needed = false
		if ok, err := s.open(ctx); err != nil || !ok {
			a.Exit = fmt.Sprintf("a new server process could not be opened again: %v", err)
			t.drop()
			return a
		}
	}
	proc := t.proc
	died := func() *Answer {
		select {
		case <-proc.exited:
		case <-time.After(stopWait):
		}
		a.Exit = proc.exitText()
		t.drop()
		return a
	}
	for _, m := range p.Lines {
		a.Sent = append(a.Sent, texts(m)...)
		if proc.write(ctx, m) != nil {
			return died()
		}
	}
	follow, _, followID := s.followUp()
	if proc.write(ctx, follow) != nil {
		return died()
	}
	owed := p.owed()
	followUps := 1
	timer := time.NewTimer(t.bound())
	defer timer.Stop()
	seen := proc.arriving()
	for {
		if a.Next && (a.Reply != nil || !owed && (!p.Settle || followUps == settleFollowUps+1)) {
			a.Silent = a.Reply == nil
			return a
		}
		select {
		case r, ok := <-proc.lines:
			if !ok {
				return died()
			}
			t.fresh0 = false
			a.Received = append(a.Received, texts(r.line)...)
			if r.overlong {
				if a.Reply == nil {
					a.Reply, a.Overlong = r.line, true
				}
				continue
			}
			if !isMessage(r.line) {
				a.Stray = append(a.Stray, string(r.line))
				continue
			}
			id, isResp := readResponse(r.line)
			switch {
			case isResp && t.pings[id]: // a late answer to an opening's ping
				delete(t.pings, id)
			case isResp && id == followID:
				a.Next = true
				if p.Settle && a.Reply == nil && followUps <= settleFollowUps {
					follow, _, followID = s.followUp()
					followUps++
					a.Next = false
					if proc.write(ctx, follow) != nil {
						return died()
					}
				}
			case isResp && s.another(p, id):
				a.Late = append(a.Late, id)
			case a.Reply == nil && p.matches(r.line, id, isResp):
				a.Reply, a.Overlong = r.line, r.overlong
			}
		case <-timer.C:
			if n := proc.arriving(); n >= 0 && n != seen { // a line is still coming: the bound is on silence
				seen = n
				timer.Reset(t.bound())
				continue
			}
			if owed && a.Next { // it answers others, not this one: the request is cancelled
				a.Silent = true
				proc.write(ctx, s.msg(nil, "notifications/cancelled", map[string]any{"requestId": json.RawMessage(p.ID), "reason": "mcpc check: no reply within " + a.Wait}))
				return a
			}
			a.Hung = true
			t.drop()
			return a
		case <-ctx.Done(): // the check is stopped (Ctrl-C, -timeout): so is the server, at once
			a.Exit = ctx.Err().Error()
			t.drop()
			return a
		}
	}
}

// owed reports whether p is a request the server owes a reply: one with an
// id, neither a message that is invalid as a whole nor one it cancels.
func (p *Probe) owed() bool {
	return p.ID != "" && !p.Settle && p.Lesson != LessonCancellation
}

// matches reports whether a line the server wrote is the reply to p: the
// response with p's id, or for a message whose id cannot be read, a
// response with a null id, a batch, or a response to one of a batch's
// requests.
func (p *Probe) matches(line []byte, id string, isResp bool) bool {
	if isResp && p.ID != "" && id == p.ID {
		return true
	}
	if !p.Settle {
		return false
	}
	if isResp {
		return p.ID == "" || id == "null" || id == ""
	}
	return len(line) > 0 && line[0] == '['
}
