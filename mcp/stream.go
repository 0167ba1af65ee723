package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// Serve serves one connection: it reads newline-delimited JSON-RPC messages
// from r and writes each response to w as one line. Requests run
// concurrently: a tool call or resource read still running after a
// millisecond holds up neither the requests after it nor their
// cancellation. Responses are written whole, never interleaved. Bad input
// is answered with a JSON-RPC error and the connection goes on.
//
// When r ends, Serve waits for the requests still running (at most
// Options.ShutdownTimeout) and returns nil. It returns early with ctx's
// error when ctx is done, even while a read of r blocks (a read of a pipe
// or terminal that stays open blocks even once the file is closed), and
// with the error of a failed read or write.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return s.serve(ctx, nil, r, w)
}

// serve is Serve, which also ends when stop is closed, as if r had ended:
// it starts no more handlers, waits for those running and returns nil,
// without waiting for a read of r that blocks.
func (s *Server) serve(ctx context.Context, stop <-chan struct{}, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer s.flushLog()
	c := newConn(ctx, s, r, w)
	go c.read()
	var err error
	select {
	case <-c.readDone:
		err = c.readErr
	case <-stop:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		err = ctx.Err() // a read failing because the input was closed on purpose
	}
	c.drain()
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.opts.ShutdownTimeout):
		s.log.Warn("shutdown: handlers still running after the timeout", "timeout", s.opts.ShutdownTimeout)
	case <-ctx.Done():
	}
	if err == nil {
		err = c.writeErr()
	}
	return err
}

// conn is one stream connection.
//
// One goroutine at a time reads, and it runs each handler itself: for the
// usual quick handler, that saves waking a second goroutine (and growing
// its stack) on every call, which costs more than the call. When a handler
// runs longer than handoffDelay, a new goroutine takes over reading, so
// later requests and cancellations are not held up; the old one finishes
// its handler and exits.
type conn struct {
	srv *Server
	cs  connState
	wg  sync.WaitGroup // running handlers

	// The reader's state, owned by the goroutine reading.
	ctx   context.Context
	lines *lineReader

	readDone chan struct{} // closed when the input has ended
	readErr  error         // why; set before readDone is closed

	wmu  sync.Mutex
	w    io.Writer
	werr error

	handoff *handoff // starts a reader when a handler outlasts handoffDelay

	runMu    sync.Mutex // guards draining and the additions to wg
	draining bool       // set once Serve waits for wg: no handler starts
}

// handoffDelay is how long a handler runs on the reading goroutine before
// another goroutine takes over reading.
const handoffDelay = time.Millisecond

// newConn returns a connection serving r and w for s until ctx is done.
func newConn(ctx context.Context, s *Server, r io.Reader, w io.Writer) *conn {
	c := &conn{
		srv: s, w: w,
		ctx: ctx, lines: newLineReader(r, s.opts.MaxLineBytes), readDone: make(chan struct{}),
	}
	c.cs.transport = TransportStdio
	c.handoff = newHandoff(handoffDelay, c.read)
	return c
}

// read reads lines until the input ends, serving each, or until it hands
// reading over to another goroutine.
func (c *conn) read() {
	for {
		line, err := c.readLine()
		if err == nil {
			err = c.ctx.Err()
		}
		if err != nil && err != io.EOF {
			c.endRead(err)
			return
		}
		if !c.serveLine(c.ctx, line) {
			return
		}
		if err == io.EOF {
			c.endRead(nil)
			return
		}
	}
}

// endRead records why the input ended.
func (c *conn) endRead(err error) {
	c.readErr = err
	close(c.readDone)
}

// readLine returns the next line, answering those over the limit. At the
// end of the input it returns the last line, if any, with io.EOF.
func (c *conn) readLine() ([]byte, error) {
	for {
		line, err := c.lines.next()
		if err != errTooLong {
			return line, err
		}
		c.tooLong(leadingID(line))
	}
}

// tooLong answers a line longer than Options.MaxLineBytes, to id (nil for
// null).
func (c *conn) tooLong(id json.RawMessage) {
	c.write(c.srv.fail(id, "", errLineTooLong.error(strconv.Itoa(c.srv.opts.MaxLineBytes))))
}

// leadingID returns the id of the too long line that starts with prefix,
// when prefix holds it: a member "id" of the top-level object, valid as an
// id, after members that are valid JSON. It returns nil otherwise, for a
// reply to null.
func leadingID(prefix []byte) json.RawMessage {
	if id := json.RawMessage(jsonwire.LeadingMember(prefix, "id")); jsonwire.ValidID(id) {
		return bytes.Clone(id)
	}
	return nil
}

// serveLine serves one line: a message, or a batch where the connection's
// version requires them. A handler that outlasts handoffDelay makes
// c.handoff start the next reader; serveLine reports whether the calling
// goroutine is still the reader.
func (c *conn) serveLine(ctx context.Context, line []byte) bool {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return true
	case line[0] == '[':
		c.serveBatch(ctx, line)
		return true
	}
	m, derr := decode(line)
	if derr != nil {
		c.write(c.srv.fail(derr.id, "", derr.err))
		return true
	}
	switch {
	case isResponse(m):
		// the server sends no requests, so no response is awaited
	case isNotification(m):
		c.cs.notify(m)
	case isHandlerMethod(*m.Method):
		return c.run(ctx, m)
	default:
		resp, _ := c.srv.respond(ctx, &c.cs, m)
		c.write(resp)
	}
	return true
}

// isResponse reports whether m is a response rather than a request.
func isResponse(m *message) bool { return m.Method == nil }

// isNotification reports whether the request m expects no response.
func isNotification(m *message) bool { return m.ID == nil }

// isHandlerMethod reports whether a method runs user code, and so runs
// concurrently and can be cancelled; the others are answered in order.
func isHandlerMethod(method string) bool {
	return method == "tools/call" || method == "resources/read"
}

// run serves a request that runs a handler, cancellable by
// notifications/cancelled, and writes its response unless it was
// cancelled. It reports whether the calling goroutine is still the reader:
// false when the handler ran so long that another took over reading.
func (c *conn) run(ctx context.Context, m *message) bool {
	if !c.begin() {
		return true // read after Serve stopped: not served
	}
	defer c.wg.Done()
	ctx, cl := c.cs.track(ctx, m.ID)
	run := c.handoff.begin() // only now: a cancellation the next reader reads finds the call
	resp, _ := c.srv.respond(ctx, &c.cs, m)
	reader := c.handoff.end(run)
	if !c.cs.untrack(cl) {
		c.write(resp)
	}
	return reader
}

// begin counts a handler starting in wg, unless Serve is draining.
func (c *conn) begin() bool {
	c.runMu.Lock()
	defer c.runMu.Unlock()
	if !c.draining {
		c.wg.Add(1)
	}
	return !c.draining
}

// track makes the request id, whose handler is about to run, cancellable
// by notifications/cancelled: it returns the context to run it with and
// the call to give untrack when the handler has returned. Every request
// that runs a handler on a connection goes through track and untrack.
func (cs *connState) track(ctx context.Context, id json.RawMessage) (context.Context, *call) {
	ctx, cancel := context.WithCancelCause(ctx)
	cl := &call{key: idKey(id), cancel: cancel}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.calls == nil {
		cs.calls = make(map[string]*call)
	}
	cs.calls[cl.key] = cl
	return ctx, cl
}

// untrack forgets cl, whose handler has returned, releases its context,
// and reports whether notifications/cancelled cancelled it, in which case
// its response is not sent.
func (cs *connState) untrack(cl *call) (cancelled bool) {
	cl.cancel(nil)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.calls[cl.key] == cl { // not a later request reusing the id
		delete(cs.calls, cl.key)
	}
	return cl.cancelled
}

// notify handles the notification m: notifications/cancelled cancels the
// running request it names. Every other notification is ignored: the
// server sends no requests, so notifications/initialized changes nothing,
// and the spec asks that unknown ones be ignored. So are invalid
// cancellations, and those of unknown or finished requests.
func (cs *connState) notify(m *message) {
	if *m.Method != "notifications/cancelled" || m.Params == nil || !jsonwire.ValidID(m.Params.RequestID) {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cl := cs.calls[idKey(m.Params.RequestID)]; cl != nil {
		cl.cancelled = true
		cl.cancel(nil)
	}
}

// cancelAll cancels every request of cs whose handler is running, with
// cause: the end of a legacy HTTP session, or the server's shutdown.
func (cs *connState) cancelAll(cause error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, cl := range cs.calls {
		cl.cancel(cause)
	}
}

// idKey identifies a request id: the same string, or the same number text.
func idKey(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(id)
}

// call is a request whose handler is running, made cancellable by track.
type call struct {
	key       string
	cancel    context.CancelCauseFunc
	cancelled bool // by notifications/cancelled; guarded by connState.mu
	// In a legacy HTTP session, guarded by connState.mu: the client closed
	// the request while the handler ran on (an orphan), and the handler
	// has returned.
	orphaned, returned bool
}

// handoff watches the handlers that a stream's reader runs, one at a
// time, and starts a new reader when one of them has run for its delay,
// so that the requests after it are not held up.
//
// A handler costs it a clock reading and three atomic operations. Its one
// timer is armed when a handler begins while the timer is idle, and is
// never stopped: when it fires, it hands reading over if the handler
// running has run for the delay, and waits for the rest of the delay if a
// later one is running. While handlers keep beginning, it keeps firing
// every delay; after a delay with none, it goes idle.
type handoff struct {
	delay    time.Duration
	takeOver func()    // goes on reading the stream, on the timer's goroutine
	epoch    time.Time // the origin of the times in running
	timer    *time.Timer

	// running holds when the handler running began, in nanoseconds since
	// epoch (above 0); once it has returned, that time negated; and 0
	// before the first handler and after a handoff. The reader's end and
	// the timer's handoff each swap it from that time: whichever comes
	// first decides who reads.
	running atomic.Int64
	armed   atomic.Bool // the timer is pending or firing
}

// A handlerRun is a handler's turn on the reader, from begin to end.
type handlerRun int64

// newHandoff returns a handoff that calls takeOver when a handler has run
// for delay.
func newHandoff(delay time.Duration, takeOver func()) *handoff {
	h := &handoff{delay: delay, takeOver: takeOver, epoch: time.Now()}
	h.timer = time.AfterFunc(math.MaxInt64, h.fire) // armed by begin
	return h
}

// begin records that the reader begins running a handler, and returns the
// run to give end when it returns. Requests read from the stream after
// begin may be read by another goroutine.
func (h *handoff) begin() handlerRun {
	began := h.now()
	h.running.Store(began)
	if !h.armed.Load() && h.armed.CompareAndSwap(false, true) {
		h.timer.Reset(h.delay)
	}
	return handlerRun(began)
}

// end records that the handler of run has returned, and reports whether
// the caller is still the reader. When it is not, reading was handed over
// while the handler ran, and the caller must not read again.
func (h *handoff) end(run handlerRun) bool {
	return h.running.CompareAndSwap(int64(run), -int64(run))
}

// now returns the time since epoch, above 0.
func (h *handoff) now() int64 {
	return int64(time.Since(h.epoch)) + 1
}

// fire runs when the timer fires.
func (h *handoff) fire() {
	for {
		began := h.running.Load()
		if began <= 0 {
			if began < 0 && h.now()+began < int64(h.delay) {
				h.timer.Reset(h.delay) // handlers keep beginning: cheaper than arming it anew
				return
			}
			// Idle. A handler beginning from now on arms the timer; one
			// that began before it could see the timer still armed.
			h.armed.Store(false)
			if h.running.Load() <= 0 || !h.armed.CompareAndSwap(false, true) {
				return
			}
			continue
		}
		if rest := began + int64(h.delay) - h.now(); rest > 0 {
			h.timer.Reset(time.Duration(rest))
			return
		}
		if h.running.CompareAndSwap(began, 0) {
			h.armed.Store(false) // before the next reader begins a handler
			h.takeOver()
			return
		}
		// The handler returned meanwhile: look again.
	}
}

// drain makes begin refuse the handlers of lines read from now on, so that
// Serve can wait for wg while a reader may still be running.
func (c *conn) drain() {
	c.runMu.Lock()
	defer c.runMu.Unlock()
	c.draining = true
}

// write writes one response line. After a write fails, the rest are dropped
// and Serve returns the error; a write that fails because the client
// closed its reading end is logged, once.
func (c *conn) write(line []byte) {
	if line == nil {
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return
	}
	if _, err := c.w.Write(line); err != nil {
		c.werr = err
		if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
			row := errClientClosed.row()
			c.srv.log.LogAttrs(c.ctx, row.level, row.message, slog.String("error", err.Error()))
		}
	}
}

// writeErr returns the error of the write that failed, if any. A pipe
// whose reading end was closed (io.ErrClosedPipe) is no error: the client
// has gone.
func (c *conn) writeErr() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if errors.Is(c.werr, io.ErrClosedPipe) {
		return nil
	}
	return c.werr
}
