// Package lockstep talks to a JSON-RPC server over its stdin and stdout in
// lock step: it sends request lines one at a time and, after each line the
// server owes a reply (see [OwedReplies]), waits for that reply before it
// sends the next. A request that a later line cancels is owed none: lock
// step sends the lines after it at once, the cancellation among them. The order of the replies is then deterministic although
// the server handles requests concurrently.
//
// The guide talks to its servers this way in three places: the testscript
// command that pins each chapter's wire exchange (package exchange), the
// raw command of mcpc, and the docs site's Run buttons, where the chapter
// runs in the page, compiled to WebAssembly, and mcp.Main drives it with
// [Send] instead of a process's stdin.
package lockstep

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// ReplyTimeout is the usual bound on the wait for one reply, for callers
// that start an already built server.
const ReplyTimeout = 10 * time.Second

// ExitTimeout bounds the wait for the server to exit once its input is
// closed. It exceeds the chapters' default shutdown timeout.
const ExitTimeout = 10 * time.Second

// ExitError reports a server that, once every reply had come and its input
// was closed, did not exit in time (or before the context ended) or exited
// with a failure status.
type ExitError struct{ Err error }

// Error returns the text of the underlying error.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ExitError) Unwrap() error { return e.Err }

// Run starts the server cmd (whose Dir and Stderr are the caller's to set),
// writes the lines to its stdin one at a time, skipping blank ones, and
// after each line that [OwedReplies] says is owed a reply reads the
// server's output until a response comes, at most replyTimeout (zero for no bound but ctx). Then it
// closes the server's input and waits, at most [ExitTimeout], for it to
// exit with status 0.
//
// Every line the server writes, newline included, goes to each in order:
// the replies, and also the server's own requests and notifications and
// whatever it writes once its input is closed. A line that is not a
// JSON-RPC message, or a batch of them, ending in a newline is an error:
// stdout carries protocol messages only.
//
// When Run fails it kills the server. A server that, once every reply has
// come and its input is closed, does not exit in time or exits with a
// failure status is an [*ExitError].
func Run(ctx context.Context, cmd *exec.Cmd, lines []string, replyTimeout time.Duration, each func(line []byte)) (err error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %v", err)
	}
	received := Lines(out)
	defer func() {
		if err != nil {
			cmd.Process.Kill()
			for range received {
			}
			cmd.Wait()
		}
	}()
	if err := Send(ctx, in, received, lines, replyTimeout, each); err != nil {
		return err
	}

	in.Close()
	timeout := time.NewTimer(ExitTimeout)
	defer timeout.Stop()
	for {
		select {
		case line, ok := <-received:
			if !ok {
				if err := cmd.Wait(); err != nil {
					return &ExitError{fmt.Errorf("the server failed: %v", err)}
				}
				return nil
			}
			if _, err := pass(line, each); err != nil {
				return err
			}
		case <-timeout.C:
			return &ExitError{fmt.Errorf("the server did not exit within %v of its input closing", ExitTimeout)}
		case <-ctx.Done():
			return &ExitError{fmt.Errorf("waiting for the server to exit: %w", ctx.Err())}
		}
	}
}

// Send is the lock step of [Run] without the process: it writes the lines to
// in one at a time, each in one Write, skipping blank ones, and after each
// line that is owed a reply ([OwedReplies]) passes the lines received
// yields to each until a response comes, at most replyTimeout (zero for no bound but ctx). received
// is [Lines] of the server's output; Send leaves it, and in, open.
func Send(ctx context.Context, in io.Writer, received <-chan []byte, lines []string, replyTimeout time.Duration, each func(line []byte)) error {
	owed := OwedReplies(lines)
	for n, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			return fmt.Errorf("request line %d: writing to the server: %v", n+1, err)
		}
		if !owed[n] {
			continue
		}
		if err := awaitReply(ctx, received, line, replyTimeout, each); err != nil {
			return fmt.Errorf("request line %d: %w", n+1, err)
		}
	}
	return nil
}

// Pass checks that line, as a server wrote it, is a JSON-RPC message or a
// batch of them ending in a newline, and hands it to each.
func Pass(line []byte, each func(line []byte)) error {
	_, err := pass(line, each)
	return err
}

// PassReply is Pass, reporting too whether line is a response (or a batch
// of them), as the replies a request waits for are.
func PassReply(line []byte, each func(line []byte)) (reply bool, err error) {
	return pass(line, each)
}

// awaitReply passes the lines the server writes to each until one is a
// response to request, waiting at most timeout (zero for no bound but ctx).
func awaitReply(ctx context.Context, received <-chan []byte, request string, timeout time.Duration, each func([]byte)) error {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	for {
		select {
		case line, ok := <-received:
			if !ok {
				return fmt.Errorf("the server closed stdout without replying to %s", request)
			}
			reply, err := pass(line, each)
			if err != nil {
				return err
			}
			if reply {
				return nil
			}
		case <-expired:
			return fmt.Errorf("no reply within %v to %s", timeout, request)
		case <-ctx.Done():
			return fmt.Errorf("no reply to %s: %w", request, ctx.Err())
		}
	}
}

// pass checks that line is a JSON-RPC message, hands it to each, and
// reports whether it is a reply: a response or a batch.
func pass(line []byte, each func([]byte)) (reply bool, err error) {
	reply, err = checkMessage(line)
	if err != nil {
		return false, fmt.Errorf("the server wrote a line that is not a JSON-RPC message (%v): %q", err, line)
	}
	each(line)
	return reply, nil
}

// Lines sends each line read from r, newline included, on the returned
// channel, which it closes at the end of r.
func Lines(r io.Reader) <-chan []byte {
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}
