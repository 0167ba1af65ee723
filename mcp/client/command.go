package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/mcpbookshop/guide/mcp"
)

// DefaultCloseTimeout is how long closing a [Command] transport waits for the
// server to exit once its input is closed, before killing it.
const DefaultCloseTimeout = 5 * time.Second

// exitGrace is how long the reader waits, once the server's output ends,
// for the process to exit so that the error can give its exit status. A
// server that dies closes its output a moment before it has exited; on a
// loaded machine that moment has been seen to pass 100 ms, so the bound is
// generous: only a server that closes its output and stays alive waits it
// out.
const exitGrace = 2 * time.Second

// Command returns a transport to the server cmd runs, speaking one
// JSON-RPC message per line on its stdin and stdout. cmd must not have been
// started, and its Stdin and Stdout must be unset; its stderr passes through
// to this process's unless cmd.Stderr is set.
//
// The command starts with the first message sent (in [Connect]). A
// cancelled call sends notifications/cancelled for its request. If the
// server exits or closes its output, the calls in flight fail at once.
// Close closes the server's stdin, waits up to [DefaultCloseTimeout] for it
// to exit, then kills it.
func Command(cmd *exec.Cmd) Transport {
	return &command{
		cmd:          cmd,
		closeTimeout: DefaultCloseTimeout,
		pending:      make(map[int64]chan []byte),
		done:         make(chan struct{}),
		exited:       make(chan struct{}),
	}
}

// command is the transport Command returns.
type command struct {
	cmd          *exec.Cmd
	closeTimeout time.Duration

	startOnce sync.Once
	startErr  error
	stdout    *os.File

	wmu   sync.Mutex
	stdin io.WriteCloser

	mu      sync.Mutex
	pending map[int64]chan []byte // by request id
	closing bool                  // Close was called

	done chan struct{} // closed when the reader stops
	err  error         // why; set before done is closed

	exited  chan struct{} // closed when the process has exited
	waitErr error         // set before exited is closed

	closeOnce sync.Once
	closeErr  error
}

// start starts the command, once.
func (t *command) start() error {
	t.startOnce.Do(func() { t.startErr = t.launch() })
	return t.startErr
}

func (t *command) launch() error {
	if t.cmd.Stdout != nil {
		return errors.New("mcp: client.Command: the command's Stdout is already set")
	}
	if t.cmd.Stderr == nil {
		t.cmd.Stderr = os.Stderr
	}
	if t.cmd.WaitDelay == 0 {
		t.cmd.WaitDelay = t.closeTimeout // bounds copying a Stderr writer after exit
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("mcp: client.Command: %w", err)
	}
	// A pipe of our own rather than StdoutPipe: Wait then returns when the
	// process exits, even if a child of it still holds the pipe open.
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("mcp: client.Command: %w", err)
	}
	t.cmd.Stdout = w
	err = t.cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return fmt.Errorf("mcp: starting the server: %w", err)
	}
	t.stdin, t.stdout = stdin, r
	go t.read()
	go func() {
		t.waitErr = t.cmd.Wait()
		close(t.exited)
	}()
	return nil
}

func (t *command) Call(ctx context.Context, m *Outgoing) ([]byte, error) {
	if err := t.start(); err != nil {
		return nil, err
	}
	resp := make(chan []byte, 1)
	t.mu.Lock()
	if t.closing {
		t.mu.Unlock()
		return nil, ErrClosed
	}
	t.pending[m.ID] = resp
	t.mu.Unlock()
	if err := t.write(m.Line); err != nil {
		t.forget(m.ID)
		return nil, err
	}
	select {
	case line := <-resp:
		return line, nil
	case <-t.done:
		select {
		case line := <-resp: // it arrived just before the end
			return line, nil
		default:
			return nil, t.err
		}
	case <-ctx.Done():
		t.forget(m.ID)
		t.cancel(m.ID, ctx.Err())
		return nil, ctx.Err()
	}
}

func (t *command) Notify(ctx context.Context, m *Outgoing) error {
	if err := t.start(); err != nil {
		return err
	}
	return t.write(m.Line)
}

// write sends one line to the server.
func (t *command) write(line []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if _, err := t.stdin.Write(append(line[:len(line):len(line)], '\n')); err != nil {
		select {
		case <-t.done:
			return t.err
		default:
			return fmt.Errorf("%w: writing to the server: %v", ErrClosed, err)
		}
	}
	return nil
}

// forget stops waiting for the response to id.
func (t *command) forget(id int64) {
	t.mu.Lock()
	delete(t.pending, id)
	t.mu.Unlock()
}

// cancel tells the server that the request id is cancelled. The request
// has failed already, so a failure to tell is of no consequence.
func (t *command) cancel(id int64, reason error) {
	if line, err := cancelledLine(id, reason.Error()); err == nil {
		t.write(line)
	}
}

// read reads the server's output until it ends, handing each response to
// the call waiting for it. Then it fails the calls still waiting.
func (t *command) read() {
	br := bufio.NewReader(t.stdout)
	var err error
	for err == nil {
		line, rerr := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			err = t.receive(line)
		}
		if err == nil && rerr != nil {
			err = t.endError()
		}
	}
	t.mu.Lock()
	t.err = err
	close(t.done)
	t.mu.Unlock()
	io.Copy(io.Discard, br) // let the server finish writing
}

// endError says why the server's output ended.
func (t *command) endError() error {
	select {
	case <-t.exited:
		if t.waitErr != nil {
			return fmt.Errorf("%w: the server exited (%v)", ErrClosed, t.waitErr)
		}
		return fmt.Errorf("%w: the server exited", ErrClosed)
	case <-time.After(exitGrace):
		return fmt.Errorf("%w: the server closed its output", ErrClosed)
	}
}

// receive handles one line from the server. A line that is not JSON breaks
// the protocol and ends the connection.
func (t *command) receive(line []byte) error {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return fmt.Errorf("%w: the server wrote a line that is not JSON-RPC: %.80q", ErrClosed, line)
	}
	if m.Method != nil {
		if m.ID != nil {
			t.answer(m.ID, *m.Method)
		}
		return nil // notifications from the server are not used
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		// The server could not read a request's id: every call waiting
		// may be the one, so each gets the error.
		t.mu.Lock()
		for id, resp := range t.pending {
			resp <- line
			delete(t.pending, id)
		}
		t.mu.Unlock()
		return nil
	}
	id, err := strconv.ParseInt(string(m.ID), 10, 64)
	if err != nil {
		return nil // not an id this client sent
	}
	t.mu.Lock()
	resp := t.pending[id]
	delete(t.pending, id)
	t.mu.Unlock()
	if resp != nil {
		resp <- line
	}
	return nil
}

// answer replies to a request from the server: ping gets its empty result,
// anything else method not found, since this client offers no features.
func (t *command) answer(id json.RawMessage, method string) {
	resp := response{JSONRPC: "2.0", ID: id, Result: &struct{}{}}
	if method != "ping" {
		resp.Result = nil
		resp.Error = &mcp.Error{Code: mcp.CodeMethodNotFound, Message: "Method not found", Data: method}
	}
	if line, err := json.Marshal(&resp); err == nil {
		go t.write(line)
	}
}

// response is the reply to a request from the server.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *struct{}       `json:"result,omitempty"`
	Error   *mcp.Error      `json:"error,omitempty"`
}

func (t *command) Close() error {
	t.closeOnce.Do(func() { t.closeErr = t.close() })
	return t.closeErr
}

func (t *command) close() error {
	t.mu.Lock()
	t.closing = true
	t.mu.Unlock()
	t.startOnce.Do(func() { t.startErr = ErrClosed }) // never to start now
	if t.startErr != nil {
		return nil
	}
	t.stdin.Close() // also ends a write blocked on a server that stopped reading
	var err error
	select {
	case <-t.exited:
		if t.waitErr != nil {
			err = fmt.Errorf("mcp: the server exited: %w", t.waitErr)
		}
	case <-time.After(t.closeTimeout):
		t.cmd.Process.Kill()
		<-t.exited
		err = fmt.Errorf("mcp: the server did not exit within %v of its input closing, so it was killed", t.closeTimeout)
	}
	t.stdout.Close() // ends the reader if a child of the server holds the pipe
	<-t.done
	return err
}
