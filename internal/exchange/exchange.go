// Package exchange provides the testscript command that pins an MCP server's
// wire exchange, and the testscript setup the chapters' tests share.
//
// The command
//
//	exchange <requests> <server> [args...]
//
// starts the server command as a real process and sends it the lines of the
// requests file one at a time. After each line that expects a reply (every
// line except a well-formed notification) it waits for one line of output,
// at most [ReplyTimeout], and prints it verbatim to stdout, so a script can
// compare the whole exchange with cmp:
//
//	exchange req/success.jsonl 01-tool-errors
//	cmp stdout want/success.jsonl
//
// Sending one line at a time makes the order of the replies deterministic
// although the server handles requests concurrently.
//
// The command fails if a reply does not arrive in time, if the server writes
// anything to stdout that is not a JSON-RPC message, or if, once its input is
// closed, the server does not exit with status 0 within [ExitTimeout]. Lines
// the server writes without being asked are printed too, so cmp sees them.
// What the server wrote to stderr becomes the command's stderr, for the
// script's stderr command.
package exchange

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// ReplyTimeout bounds the wait for the reply to one request line.
const ReplyTimeout = 10 * time.Second

// ExitTimeout bounds the wait for the server to exit once its input is
// closed. It exceeds the server's default shutdown timeout.
const ExitTimeout = 10 * time.Second

// Cmd is the exchange command, for testscript.Params.Cmds.
func Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("exchange does not support negation: a failed exchange is a failed test")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exchange <requests> <server> [args...]")
	}
	requests := strings.Split(ts.ReadFile(args[0]), "\n")
	var stderr bytes.Buffer
	err := run(args[1:], requests, ts.MkAbs("."), ts.Stdout(), &stderr)
	io.Copy(ts.Stderr(), &stderr)
	ts.Check(err)
}

// run runs the server command in dir, sends it the request lines one at a
// time and writes each reply line to stdout.
func run(command, requests []string, dir string, stdout, stderr io.Writer) (err error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := readLines(out)
	defer func() {
		if err != nil {
			cmd.Process.Kill()
			for range lines {
			}
			cmd.Wait()
		}
	}()

	for n, req := range requests {
		if strings.TrimSpace(req) == "" {
			continue
		}
		if _, err := io.WriteString(in, req+"\n"); err != nil {
			return fmt.Errorf("request line %d: writing to the server: %v", n+1, err)
		}
		if !expectsReply([]byte(req)) {
			continue
		}
		select {
		case line, ok := <-lines:
			if !ok {
				return fmt.Errorf("request line %d: the server closed stdout without replying to %s", n+1, req)
			}
			if err := emit(stdout, line); err != nil {
				return err
			}
		case <-time.After(ReplyTimeout):
			return fmt.Errorf("request line %d: no reply within %v to %s", n+1, ReplyTimeout, req)
		}
	}

	in.Close()
	timeout := time.After(ExitTimeout)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				if err := cmd.Wait(); err != nil {
					return fmt.Errorf("the server failed: %v", err)
				}
				return nil
			}
			if err := emit(stdout, line); err != nil {
				return err
			}
		case <-timeout:
			return fmt.Errorf("the server did not exit within %v of its input closing", ExitTimeout)
		}
	}
}

// readLines sends each line read from r on the returned channel, which it
// closes at the end of r.
func readLines(r io.Reader) <-chan []byte {
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

// emit checks that line is one JSON-RPC message (or a batch of them) and
// writes it verbatim.
func emit(w io.Writer, line []byte) error {
	if err := checkMessage(line); err != nil {
		return fmt.Errorf("the server wrote a line that is not a JSON-RPC message (%v): %q", err, line)
	}
	_, err := w.Write(line)
	return err
}

// envelope is the part of a JSON-RPC message the checks read.
type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    *int    `json:"code"`
		Message *string `json:"message"`
	} `json:"error"`
}

// checkMessage reports what makes a line the server wrote other than one
// JSON-RPC 2.0 message, or a batch of them, ending in a newline.
func checkMessage(line []byte) error {
	body, ok := bytes.CutSuffix(line, []byte("\n"))
	if !ok {
		return errors.New("no newline at the end")
	}
	if bytes.ContainsAny(body, "\r\n") {
		return errors.New("a line break inside the message")
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) == nil {
		if len(batch) == 0 {
			return errors.New("an empty batch")
		}
		for _, m := range batch {
			if err := checkOne(m); err != nil {
				return err
			}
		}
		return nil
	}
	return checkOne(body)
}

// checkOne reports what makes raw other than one JSON-RPC 2.0 message.
func checkOne(raw []byte) error {
	var e envelope
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	switch {
	case e.JSONRPC == nil || *e.JSONRPC != "2.0":
		return errors.New(`"jsonrpc" is not "2.0"`)
	case e.Method != nil:
		return nil // a request or notification from the server
	case e.ID == nil:
		return errors.New(`a response without "id"`)
	case (e.Result == nil) == (e.Error == nil):
		return errors.New(`a response needs exactly one of "result" and "error"`)
	case e.Error != nil && (e.Error.Code == nil || e.Error.Message == nil):
		return errors.New(`an error without "code" or "message"`)
	}
	return nil
}

// expectsReply reports whether the server must answer a request line:
// everything but a well-formed notification, or a batch of nothing else.
func expectsReply(line []byte) bool {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, m := range batch {
			if !isNotification(m) {
				return true
			}
		}
		return len(batch) == 0
	}
	return !isNotification(line)
}

// isNotification reports whether raw is a well-formed JSON-RPC notification:
// an object with jsonrpc "2.0", a method name and no id.
func isNotification(raw []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	var version, method string
	_, hasID := m["id"]
	return !hasID &&
		json.Unmarshal(m["jsonrpc"], &version) == nil && version == "2.0" &&
		json.Unmarshal(m["method"], &method) == nil && method != ""
}
