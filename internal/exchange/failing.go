package exchange

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpbookshop/guide/internal/lockstep"
)

// FailingReplyTimeout is how long "! exchange" waits for each reply, and
// for the server to exit once its input is closed, before it records that
// none came. A server that answers waits far less; one that hangs costs
// the case this much.
const FailingReplyTimeout = 2 * time.Second

// runFailing runs the server command in dir as run does, but records what
// run would fail on instead of failing: a request left without a reply
// (within FailingReplyTimeout, or because the server closed its stdout), a
// server that does not exit once its input is closed, and the exit status.
// After a timeout it goes on with the next line; after stdout closes it
// sends nothing more. It returns the outcome, one sentence a line, and an
// error only for what is wrong whatever the server does: it cannot be
// started, or it writes a line that is not a JSON-RPC message. An empty
// outcome means the exchange succeeded.
func runFailing(command, requests []string, dir string, stdout, stderr io.Writer) ([]string, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the server: %v", err)
	}
	received := lockstep.Lines(out)
	defer func() {
		cmd.Process.Kill()
		for range received {
		}
		cmd.Wait()
	}()
	each, flush := cancelledLast(stdout, requests)
	defer flush()
	var outcome []string
	owed := lockstep.OwedReplies(requests)
	closed := false
send:
	for n, line := range requests {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			outcome = append(outcome, fmt.Sprintf("request line %d: not sent: the server no longer reads its input", n+1))
			break
		}
		if !owed[n] {
			continue
		}
		replied, open, err := await(received, each)
		switch {
		case err != nil:
			return nil, err
		case !open:
			outcome = append(outcome, fmt.Sprintf("request line %d: no reply: the server closed its stdout", n+1))
			closed = true
			break send
		case !replied:
			outcome = append(outcome, fmt.Sprintf("request line %d: no reply within %v", n+1, FailingReplyTimeout))
		}
	}
	in.Close()
	for !closed {
		replied, open, err := await(received, each)
		if err != nil {
			return nil, err
		}
		if open && !replied {
			break // FailingReplyTimeout passed with no line and stdout open
		}
		closed = !open
	}
	if !closed {
		outcome = append(outcome, fmt.Sprintf("the server did not exit within %v of its input closing, and was killed", FailingReplyTimeout))
		return outcome, nil
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		if len(outcome) > 0 {
			outcome = append(outcome, "the server exited with status 0")
		}
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		outcome = append(outcome, fmt.Sprintf("the server exited with status %d", exit.ExitCode()))
	default:
		outcome = append(outcome, fmt.Sprintf("the server failed: %v", err))
	}
	return outcome, nil
}

// await passes on the lines the server writes until one is a reply
// (replied), its stdout closes (open false) or FailingReplyTimeout passes
// without either (replied false, open true).
func await(received <-chan []byte, each func([]byte)) (replied, open bool, err error) {
	timeout := time.NewTimer(FailingReplyTimeout)
	defer timeout.Stop()
	for {
		select {
		case line, ok := <-received:
			if !ok {
				return false, false, nil
			}
			reply, err := lockstep.PassReply(line, each)
			if err != nil {
				return false, true, err
			}
			if reply {
				return true, true, nil
			}
		case <-timeout.C:
			return false, true, nil
		}
	}
}
