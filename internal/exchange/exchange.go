// Package exchange provides the testscript command that pins an MCP server's
// wire exchange, and the testscript setup the chapters' tests share.
//
// The command
//
//	exchange <requests> <server> [args...]
//
// starts the server command as a real process and sends it the lines of the
// requests file in lock step, as [lockstep.Run] does: one at a time, and
// after each line that is owed a reply ([lockstep.OwedReplies]) it waits
// for the server's response, at most [lockstep.ReplyTimeout]. A request
// that a later line cancels with notifications/cancelled is owed none, so
// a script pins that it gets none:
//
//	-- req/cancelled.jsonl --
//	{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait_for_stock",...}}
//	{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}
//	{"jsonrpc":"2.0","id":3,"method":"tools/list"}
//	-- want/cancelled.jsonl --
//	{"jsonrpc":"2.0","id":3,"result":...}
//
// A reply to the cancelled request would be printed too, and fail the cmp. It prints
// every line the server writes verbatim to stdout, so a script can compare
// the whole exchange with cmp:
//
//	exchange req/success.jsonl 01-tool-errors
//	cmp stdout want/success.jsonl
//
// The command fails if a reply does not arrive in time, if the server writes
// anything to stdout that is not a JSON-RPC message, or if, once its input is
// closed, the server does not exit with status 0 within
// [lockstep.ExitTimeout]. What the server wrote to stderr becomes the
// command's stderr, for the script's stderr command.
package exchange

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"

	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/rogpeppe/go-internal/testscript"
)

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

// run runs the server command in dir, sends it the request lines in lock
// step and writes every line it prints to stdout.
func run(command, requests []string, dir string, stdout, stderr io.Writer) error {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	return lockstep.Run(context.Background(), cmd, requests, lockstep.ReplyTimeout, func(line []byte) { stdout.Write(line) })
}
