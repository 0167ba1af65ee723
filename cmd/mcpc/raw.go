package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/mcpbookshop/guide/internal/lockstep"
)

// raw sends each line to the server verbatim in lock step, waiting for the
// reply each is owed, and prints every line the server writes verbatim. It
// returns the exit status of the worst reply. The run's context, not a
// bound per reply, limits the wait: "go run" may build the server first.
func raw(ctx context.Context, cmd *exec.Cmd, lines []string, stdout, stderr io.Writer) int {
	code := exitResult
	err := lockstep.Run(ctx, cmd, lines, 0, func(line []byte) {
		stdout.Write(line)
		code = max(code, outcome(line))
	})
	if err == nil {
		return code
	}
	fmt.Fprintf(stderr, "mcpc: %v\n", err)
	if exit := (*lockstep.ExitError)(nil); errors.As(err, &exit) {
		return code // every reply came: they decide the status
	}
	return exitFailure
}

// outcome returns the exit status a line the server wrote stands for: a
// protocol error, a tool error or, for a result or anything else, success.
// A batch stands for its worst member.
func outcome(line []byte) int {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		status := exitResult
		for _, item := range batch {
			status = max(status, outcome(item))
		}
		return status
	}
	var r struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	json.Unmarshal(line, &r)
	switch {
	case r.Error != nil:
		return exitProtocolError
	case r.Result.IsError:
		return exitToolError
	}
	return exitResult
}
