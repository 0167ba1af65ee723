package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Serve serves one connection: it reads newline-delimited JSON-RPC messages
// from r and writes each response to w as one line. Requests run
// concurrently; responses are written whole, never interleaved. Bad input
// is answered with a JSON-RPC error and the connection goes on.
//
// When r ends, Serve waits for the requests still running (at most
// Options.ShutdownTimeout) and returns nil. It returns early with ctx's
// error when ctx is done, and with the error of a failed read or write.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := newConn(s, w)
	err := c.read(ctx, r)
	close(c.work) // the reader was its only sender; idle workers exit
	if ctx.Err() != nil {
		err = ctx.Err() // a read failing because the input was closed on purpose
	}
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
type conn struct {
	srv *Server
	ss  session
	wg  sync.WaitGroup

	wmu  sync.Mutex
	w    io.Writer
	werr error

	mu       sync.Mutex
	inflight map[string]*call // by idKey

	work chan *call   // hands a request to an idle worker
	idle atomic.Int32 // workers waiting on work
}

// maxIdleWorkers bounds the workers a connection keeps waiting for the next
// request. Reusing a worker saves starting a goroutine and, above all,
// growing its stack again through the JSON decoder on every call.
const maxIdleWorkers = 8

func newConn(s *Server, w io.Writer) *conn {
	return &conn{srv: s, w: w, inflight: make(map[string]*call), work: make(chan *call)}
}

// call is a request whose handler is running.
type call struct {
	ctx       context.Context
	msg       *message
	key       string // idKey of the request's id
	cancel    context.CancelFunc
	cancelled bool // guarded by conn.mu
}

// read reads lines until r ends, serving each.
func (c *conn) read(ctx context.Context, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the buffer, being assembled
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			if len(long)+len(chunk) > c.srv.opts.MaxLineBytes {
				if err := skipLine(br); err != nil && err != io.EOF {
					return err
				}
				long = long[:0]
				c.tooLong()
				continue
			}
			long = append(long, chunk...)
			continue
		case err != nil && err != io.EOF:
			return err
		}
		line := chunk
		if len(long) > 0 {
			line = append(long, chunk...)
			long = long[:0]
		}
		if len(bytes.TrimSuffix(line, []byte("\n"))) > c.srv.opts.MaxLineBytes {
			c.tooLong() // shorter than the buffer, but over the limit
			line = nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		c.serveLine(ctx, line)
		if err == io.EOF {
			return nil
		}
	}
}

// tooLong answers a line longer than Options.MaxLineBytes.
func (c *conn) tooLong() {
	c.write(c.srv.fail(nil, "", newError(CodeInvalidRequest,
		fmt.Sprintf("message longer than the %d-byte limit", c.srv.opts.MaxLineBytes))))
}

// skipLine discards input up to and including the next newline.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// serveLine serves one line: a message, or a batch where the session's
// version requires them.
func (c *conn) serveLine(ctx context.Context, line []byte) {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return
	case line[0] == '[':
		c.serveBatch(ctx, line)
		return
	}
	m, derr := decode(line)
	if derr != nil {
		c.write(c.srv.fail(derr.id, "", derr.err))
		return
	}
	switch {
	case m.isResponse():
		return // the server sends no requests, so no response is awaited
	case m.isNotification():
		c.notify(m)
	case isHandlerMethod(*m.Method):
		c.start(ctx, m)
	default:
		c.write(c.srv.handle(ctx, &c.ss, m))
	}
}

// isHandlerMethod reports whether a method runs user code, and so runs
// concurrently and can be cancelled; the others are answered in order.
func isHandlerMethod(method string) bool {
	return method == "tools/call" || method == "resources/read"
}

// start runs a request in a goroutine of its own, cancellable by
// notifications/cancelled: an idle worker, or a new one.
func (c *conn) start(ctx context.Context, m *message) {
	ctx, cancel := context.WithCancel(ctx)
	cl := &call{ctx: ctx, msg: m, key: idKey(m.ID), cancel: cancel}
	c.mu.Lock()
	c.inflight[cl.key] = cl
	c.mu.Unlock()
	c.wg.Add(1)
	select {
	case c.work <- cl:
	default:
		go c.worker(cl)
	}
}

// worker runs cl, then waits for the next request while fewer than
// maxIdleWorkers others wait, until the connection's input ends.
func (c *conn) worker(cl *call) {
	for {
		c.run(cl)
		c.wg.Done()
		if c.idle.Add(1) > maxIdleWorkers {
			c.idle.Add(-1)
			return
		}
		var ok bool
		cl, ok = <-c.work
		c.idle.Add(-1)
		if !ok {
			return
		}
	}
}

// run serves cl and writes its response, unless it was cancelled.
func (c *conn) run(cl *call) {
	resp := c.srv.handle(cl.ctx, &c.ss, cl.msg)
	c.mu.Lock()
	cancelled := cl.cancelled
	if c.inflight[cl.key] == cl {
		delete(c.inflight, cl.key)
	}
	c.mu.Unlock()
	cl.cancel()
	if !cancelled {
		c.write(resp)
	}
}

// notify handles a notification: cancellation here, the rest by the server.
func (c *conn) notify(m *message) {
	if *m.Method != "notifications/cancelled" {
		c.srv.notify(&c.ss, m)
		return
	}
	if m.Params == nil || !validID(m.Params.RequestID) {
		return // invalid cancellations are ignored
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl := c.inflight[idKey(m.Params.RequestID)]; cl != nil {
		cl.cancelled = true
		cl.cancel()
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

// serveBatch serves a JSON array of messages, on sessions whose version
// requires batches; elsewhere an array is an invalid request.
func (c *conn) serveBatch(ctx context.Context, line []byte) {
	if !batchesAllowed(c.ss.legacyVersion()) {
		c.write(c.srv.fail(nil, "", newError(CodeInvalidRequest, "batches are not supported at this protocol version")))
		return
	}
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		c.write(c.srv.fail(nil, "", newError(CodeParseError, err.Error())))
		return
	}
	if len(items) == 0 {
		c.write(c.srv.fail(nil, "", newError(CodeInvalidRequest, "empty batch")))
		return
	}
	var out [][]byte
	for _, item := range items {
		m, derr := decode(item)
		switch {
		case derr != nil:
			out = append(out, c.srv.fail(derr.id, "", derr.err))
		case m.isResponse():
		case m.isNotification():
			c.notify(m)
		default:
			out = append(out, c.srv.handle(ctx, &c.ss, m))
		}
	}
	if len(out) == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(bytes.TrimSuffix(r, []byte("\n")))
	}
	b.WriteString("]\n")
	c.write(b.Bytes())
}

// write writes one response line. After a write fails, the rest are dropped
// and Serve returns the error.
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
	}
}

func (c *conn) writeErr() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if errors.Is(c.werr, io.ErrClosedPipe) {
		return nil
	}
	return c.werr
}
