package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// closeTimeout is how long raw waits for the server to exit once its input
// is closed, before killing it.
const closeTimeout = 5 * time.Second

// raw sends each line to the server verbatim, one at a time, waits for the
// reply each is owed, and prints every line the server writes verbatim. It
// returns the exit status of the worst reply.
func raw(ctx context.Context, cmd *exec.Cmd, lines []string, stdout, stderr io.Writer) int {
	in, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(stderr, "mcpc: %v\n", err)
		return exitFailure
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(stderr, "mcpc: %v\n", err)
		return exitFailure
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "mcpc: starting the server: %v\n", err)
		return exitFailure
	}
	received := make(chan []byte)
	go func() {
		defer close(received)
		br := bufio.NewReader(out)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				received <- line
			}
			if err != nil {
				return
			}
		}
	}()

	code := exitResult
	for _, line := range lines {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			fmt.Fprintf(stderr, "mcpc: writing to the server: %v\n", err)
			code = exitFailure
			break
		}
		if !expectsReply([]byte(line)) {
			continue
		}
		status, err := awaitReply(ctx, received, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "mcpc: %v\n", err)
			code = exitFailure
			break
		}
		code = max(code, status)
	}

	// Close the server's input and print whatever else it writes until it
	// exits, killing it if it takes too long.
	in.Close()
	kill := time.AfterFunc(closeTimeout, func() { cmd.Process.Kill() })
	for line := range received {
		stdout.Write(line)
	}
	err = cmd.Wait()
	if !kill.Stop() {
		err = fmt.Errorf("the server did not exit within %v of its input closing, so it was killed", closeTimeout)
	}
	if err != nil && code != exitFailure {
		fmt.Fprintf(stderr, "mcpc: server: %v\n", err)
	}
	return code
}

// awaitReply prints the lines the server writes until one is a response,
// and returns the exit status that response stands for.
func awaitReply(ctx context.Context, received <-chan []byte, stdout io.Writer) (int, error) {
	for {
		select {
		case line, ok := <-received:
			if !ok {
				return exitFailure, fmt.Errorf("the server closed its output before replying")
			}
			stdout.Write(line)
			if status, ok := replyStatus(line); ok {
				return status, nil
			}
		case <-ctx.Done():
			return exitFailure, fmt.Errorf("no reply: %w", ctx.Err())
		}
	}
}

// replyStatus reports whether line is a response (or a batch of them), and
// the exit status it stands for: a protocol error, a tool error or a result.
func replyStatus(line []byte) (status int, ok bool) {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, item := range batch {
			s, _ := replyStatus(item)
			status = max(status, s)
		}
		return status, true
	}
	var r struct {
		Method *string `json:"method"`
		Error  json.RawMessage
		Result struct {
			IsError bool `json:"isError"`
		}
	}
	if err := json.Unmarshal(line, &r); err != nil || r.Method != nil {
		return exitResult, false
	}
	switch {
	case r.Error != nil:
		return exitProtocolError, true
	case r.Result.IsError:
		return exitToolError, true
	}
	return exitResult, true
}

// expectsReply reports whether a server owes line a reply: JSON-RPC 2.0
// answers everything but a well-formed notification or response, including
// what it cannot parse. A batch is owed one reply unless all its members
// are owed none.
func expectsReply(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return false
	}
	var batch []json.RawMessage
	if line[0] == '[' && json.Unmarshal(line, &batch) == nil && len(batch) > 0 {
		for _, item := range batch {
			if expectsReply(item) {
				return true
			}
		}
		return false
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" {
		return true
	}
	notification := m.ID == nil && m.Method != nil && *m.Method != ""
	response := m.Method == nil && validID(m.ID) && (m.Result != nil || m.Error != nil)
	return !notification && !response
}

// validID reports whether a raw id is a string or a number, as JSON-RPC
// requires of the id of a response that can be matched.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || '0' <= id[0] && id[0] <= '9')
}
