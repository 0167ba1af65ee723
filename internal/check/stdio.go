package check

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync/atomic"
	"time"
)

// The bounds on what the check reads from a server.
const (
	maxLine  = 1 << 20  // one reply: a line or an HTTP body
	maxTotal = 32 << 20 // all a stdio server writes before it is stopped
	stopWait = 2 * time.Second
)

// received is a line a stdio server wrote, cut at maxLine.
type received struct {
	line     []byte
	overlong bool
}

// stdio is a server process the check talks to over its stdin and stdout.
type stdio struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan received // closed at the end of its output
	exited chan struct{} // closed once it exited and was reaped
	err    error         // how it exited, once exited is closed
	stderr *tail
	flood  bool // it wrote more than maxTotal and was stopped

	bytesRead atomic.Int64 // all the bytes read from its stdout
	midLine   atomic.Bool  // the last byte read does not end a line
}

// startStdio starts argv as a server in a process group of its own.
func startStdio(argv []string) (*stdio, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	s := &stdio{cmd: cmd, lines: make(chan received, 64), exited: make(chan struct{}), stderr: &tail{}}
	cmd.Stderr = s.stderr
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	go s.read(out)
	return s, nil
}

// read passes the server's output line by line. A line longer than
// maxLine is passed as soon as maxLine of its bytes are read, cut and
// marked overlong, and the rest of it is read and dropped: a reply is too
// long by the bytes read, however long they take to come. Once the server
// wrote more than maxTotal it is stopped; at the end of the output it is
// reaped.
func (s *stdio) read(out io.Reader) {
	r := bufio.NewReaderSize(out, 64<<10)
	var cur []byte
	n, passed := 0, false // the bytes of the current line so far; whether its start was passed
	for {
		chunk, err := r.ReadSlice('\n')
		s.midLine.Store(len(chunk) > 0 && chunk[len(chunk)-1] != '\n')
		s.bytesRead.Add(int64(len(chunk)))
		n += len(bytes.TrimSuffix(chunk, []byte("\n")))
		if !passed {
			cur = append(cur, chunk[:min(len(chunk), maxLine-len(cur))]...)
			if n > maxLine {
				s.lines <- received{cur, true}
				passed = true
			}
		}
		if s.bytesRead.Load() > maxTotal {
			s.flood = true
			killGroup(s.cmd)
			io.Copy(io.Discard, out)
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(cur) > 0 && !passed {
			s.lines <- received{cur, false}
		}
		cur, n, passed = nil, 0, false
		if err != nil {
			break
		}
	}
	close(s.lines)
	s.err = s.cmd.Wait()
	close(s.exited)
}

// arriving returns a count of the bytes read that changes while a line is
// coming and stays the same while the server is silent between lines: a
// wait for a reply is a bound on silence, and a line still arriving
// extends it.
func (s *stdio) arriving() int64 {
	if !s.midLine.Load() {
		return -1
	}
	return s.bytesRead.Load()
}

// write sends one message, bounded by ctx: a server that reads nothing
// fills the pipe.
func (s *stdio) write(ctx context.Context, msg []byte) error {
	done := make(chan error, 1)
	go func() {
		_, err := s.in.Write(append(msg[:len(msg):len(msg)], '\n'))
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-s.exited:
		return errors.New("the server exited")
	}
}

// exitText says how the server ended, with its last lines of stderr.
func (s *stdio) exitText() string {
	how := "it closed its output"
	if s.flood {
		how = fmt.Sprintf("it wrote more than %d MiB, and the check stopped it", maxTotal>>20)
	} else if s.err != nil {
		how = s.err.Error()
	} else {
		how = "exit status 0"
	}
	if l := s.stderr.lines(); l != "" {
		how += "; its last lines of stderr: " + l
	}
	return how
}

// stop closes the server's input and, when graceful, waits a little for
// it to exit; then it kills its process group, and reaps it. A server that
// hung or flooded is stopped at once.
func (s *stdio) stop(graceful bool) {
	s.in.Close()
	t := time.NewTimer(stopWait)
	defer t.Stop()
	if graceful {
		select {
		case <-s.exited:
		case <-t.C:
		}
	}
	killGroup(s.cmd)
	go func() {
		for range s.lines {
		}
	}()
	t.Reset(stopWait) // a descendant that left the group may hold stderr open
	select {
	case <-s.exited:
	case <-t.C:
	}
}
