// Package exchange provides the testscript commands that pin an MCP
// server's wire exchange and its log, and the testscript setup the tests
// share. A case of a script is a request file, two or three script lines,
// and the pins that -update writes:
//
//	# A title the catalog lacks: a tool error the model reads, logged once.
//	exchange req/tool-error.jsonl 01-tool-errors
//	pin stdout want/tool-error.jsonl
//	pin stderr log/tool-error.log
//
//	-- req/tool-error.jsonl --
//	{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Nothing"},...}}
//	-- want/tool-error.jsonl --
//	{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Error executing tool get_author: No book titled 'Nothing' in the catalog."}],"isError":true,...}}
//	-- log/tool-error.log --
//	time=<time> level=INFO msg="tool error" tool=get_author error="No book titled 'Nothing' in the catalog."
//
// (the "..." stand for the rest of the lines; see
// testdata/scripts/01-tool-errors/modern.txtar). A case whose server logs
// nothing says so with "! stderr ." instead of a log pin.
//
// # The exchange command
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
// A reply to the cancelled request would be printed too, and fail the pin.
// The command prints every line the server writes to stdout verbatim, so
// a pin holds the whole exchange; a reply to a cancelled request, which
// races the replies sent after the cancellation, comes after all of them. What the server logs on stderr becomes
// the command's stderr with what changes from run to run (the time,
// goroutine numbers, source paths and lines, all of a stack but its first
// frame's function) replaced by placeholders, by [NormalizeLog]: a log pin
// holds the level, message and attributes of each line, and no one writes
// a regular expression for them.
//
// The command fails if a reply does not arrive in time, if the server writes
// anything to stdout that is not a JSON-RPC message, or if, once its input is
// closed, the server does not exit with status 0 within
// [lockstep.ExitTimeout]; its failure shows the server's log as written.
//
// # A server that fails
//
//	! exchange <requests> <server> [args...]
//
// pins a server that does not hold up its end (one that dies, hangs or
// leaves a request unanswered), as the official Go SDK's servers do on a
// malformed line or a handler's panic (see sdks/gosdk). It sends the lines
// in lock step too, but what would fail the command is recorded instead:
// a request that gets no reply within [FailingReplyTimeout] (the next line
// is then sent all the same), a server that closes its stdout (nothing
// more is sent), one that does not exit once its input is closed (it is
// killed), and the exit status. The record follows the server's log on
// stderr, one "exchange: " line each, so the log pin holds it:
//
//	! exchange req/panic.jsonl 04-handler-failures
//	pin stdout want/panic.jsonl
//	pin stderr log/panic.log
//
//	-- log/panic.log --
//	panic: runtime error: index out of range [0] with length 0
//	...
//	exchange: request line 1: no reply: the server closed its stdout
//	exchange: the server exited with status 2
//
// A server that replies to every request and exits with status 0 fails
// "! exchange", and a line that is not a JSON-RPC message fails it too.
//
// # The abort command
//
//	abort <requests> <started> <server> [args...]
//
// pins what a server does when an HTTP client closes a request in flight,
// which is how a client cancels a request over Streamable HTTP: it runs the
// server with -http, sends the lines of the requests file, waits until the
// server logs a line holding <started>, closes the last request's
// connection, and waits until the server logs msg="request cancelled".
// Its stdout is what the server wrote back on that connection (nothing, so
// a script says "! stdout ."), its stderr the server's log; see
// [AbortCmd]:
//
//	abort req/aborted.jsonl 'waiting for the warehouse' 04-handler-failures
//	! stdout .
//	pin stderr log/aborted.log
//
// # The pin command
//
//	pin stdout|stderr <file>
//
// compares the last command's output with a file of the archive; see
// [Pins]. A stale pin's failure names the case, marks the differing bytes
// inside the line, and prints the command that refreshes the pins
// ([RefreshHelp]):
//
//	case tool-error: stdout differs from its pin want/tool-error.jsonl of testdata/scripts/01-tool-errors/modern.txtar in line 1 at byte 110:
//		pinned: …cuting tool get_author: No book titled 'Nothing' in the catalog."}]…
//		actual: …cuting tool get_author: No book called 'Nothing' in the catalog."}]…
//		                                         ^^^
//	If the new output is right, refresh the pins from the repository's root, and review them with git diff:
//		go generate ./...
//	or, for one package's pins only:
//		go test ./chapters/01-tool-errors -run '^TestScripts$' -update
//
// # Refreshing the pins
//
// With the test flag -update the pin command writes the archive instead of
// failing, adding the sections a new case lacks, so a new case is its
// request file and its script lines, and one command:
//
//	go generate ./...
//
// refreshes every pin derived from the chapters: it runs the generator
// internal/refresh, which runs the script of each archive whose inputs
// changed (the main's sources, the script and its requests, the Go version)
// with [Params], -update's pin command, in one process. One package's pins
// alone: go test ./chapters/01-tool-errors -run '^TestScripts$' -update.
// Review the change with git diff.
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
	if len(args) < 2 {
		ts.Fatalf("usage: [!] exchange <requests> <server> [args...]")
	}
	requests := strings.Split(ts.ReadFile(args[0]), "\n")
	var stderr bytes.Buffer
	var err error
	var outcome []string
	if neg {
		outcome, err = runFailing(args[1:], requests, ts.MkAbs("."), ts.Stdout(), &stderr)
	} else {
		err = Replay(context.Background(), args[1:], requests, ts.MkAbs("."), ts.Stdout(), &stderr)
	}
	log := stderr.String()
	if work := ts.Getenv("WORK"); work != "" {
		log = strings.ReplaceAll(log, work, "$WORK")
	}
	io.WriteString(ts.Stderr(), NormalizeLog(log))
	for _, line := range outcome {
		io.WriteString(ts.Stderr(), "exchange: "+line+"\n")
	}
	if neg && err == nil && len(outcome) == 0 {
		ts.Fatalf("exchange %s: the server replied to every request and exited with status 0, but the ! before exchange says it must not: remove the !", args[0])
	}
	if err != nil {
		ts.Logf("[the server's log, as written]\n%s", log)
		ts.Fatalf("exchange %s: %v", args[0], err)
	}
}

// Replay runs the server command in dir as the exchange command does: it
// sends it the request lines in lock step and writes every line it prints
// to stdout, a reply to a cancelled request last (see cancelledLast), and
// its log, as written, to stderr. What it writes to stdout is what a
// "pin stdout" line compares with its pin: the guide's server replays the
// chapters' cases with it to find the stale pins while a chapter is
// edited. The server is killed when ctx ends.
func Replay(ctx context.Context, command, requests []string, dir string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	each, flush := cancelledLast(stdout, requests)
	defer flush()
	return lockstep.Run(ctx, cmd, requests, lockstep.ReplyTimeout, each)
}
