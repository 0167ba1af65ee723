// Mcpc is a small MCP client for the command line: it starts a server
// command, asks it one thing over stdio, prints the response and exits with
// a status that tells the outcome. It reproduces every transcript in the
// guide. With -url it asks a server already running, over Streamable HTTP.
//
// Install it with
//
//	go install github.com/mcpbookshop/guide/cmd/mcpc@latest
//
// Usage:
//
//	mcpc [flags] COMMAND [ARGS] -- SERVER [SERVER ARGS...]
//	mcpc -url URL [flags] COMMAND [ARGS]
//
// The commands are:
//
//	tools             list the server's tools
//	resources         list its resources
//	templates         list its resource templates
//	call NAME [JSON]  call the tool NAME with JSON as its arguments
//	read URI          read the resource at URI
//	raw LINE...       send each JSON-RPC line verbatim and print each reply verbatim
//	check [FLAGS]     put the guide's lessons to work on the server and judge each answer
//
// Every command but raw connects as a Go program would, with the mcp
// package's client (probing the protocol era, or pinned by -era), and
// prints the server's response to the request as indented JSON. raw sends
// the lines as given, one at a time, waiting for each reply a line is owed
// (every line but a well-formed notification or response; blank lines are
// skipped); it is the way to show what a server does with bad input. A
// server that writes anything but JSON-RPC messages to stdout fails it.
//
// The exit status tells the three outcomes apart:
//
//	0  a result
//	3  a tool error: a result with "isError": true
//	4  a protocol error: a JSON-RPC error response
//	1  bad usage, or the server could not be reached or went away
//
// check has statuses of its own (see "mcpc check -h" and package
// internal/check):
//
//	0  clean: no answer against a MUST of the spec, nothing leaked
//	5  findings: an answer against a MUST, or internals leaked
//	6  the server could not be started or reached, or spoke no era
//	7  stopped by -timeout (or Ctrl-C) before its end: the verdicts found
//	   so far are printed, the lessons not reached are not checked
//	2  bad usage of check, or a -junit file it cannot write
//
// For raw, the status is that of the worst reply. Under "go run", which
// exits 1 whenever its program fails, the status shows as the line
// "exit status N". The server's stderr passes through to mcpc's.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"time"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/client"
)

// Exit statuses.
const (
	exitResult        = 0
	exitFailure       = 1
	exitToolError     = 3
	exitProtocolError = 4
)

const (
	// defaultTimeout bounds a whole run.
	defaultTimeout = time.Minute
	// probeTimeout bounds the wait for the answer to server/discover: long
	// enough for "go run" to build the server first.
	probeTimeout = 30 * time.Second
)

const usage = `usage: mcpc [flags] COMMAND [ARGS] -- SERVER [SERVER ARGS...]
       mcpc -url URL [flags] COMMAND [ARGS]

Commands:
  tools             list the server's tools
  resources         list its resources
  templates         list its resource templates
  call NAME [JSON]  call the tool NAME with JSON as its arguments (an object)
  read URI          read the resource at URI
  raw LINE...       send each JSON-RPC line verbatim and print each reply verbatim
  check [FLAGS]     put the guide's lessons to work on the server: an unknown
                    tool, arguments that break each tool's schema, a line that
                    is not JSON, ...; each answer is judged against the guide
                    and the spec, and linked to the lesson that explains it
                    (flags: mcpc check -h)

The response is printed as indented JSON (raw: each reply as it came).
Exit status: 0 result, 3 tool error (isError), 4 protocol error
(JSON-RPC error), 1 bad usage or transport failure; for check: 0 clean,
5 findings (an answer against a MUST of the spec, or internals leaked),
6 server unreachable or not started, 7 stopped by -timeout before its end
(the verdicts found so far are printed), 2 bad usage of check or a -junit
file it cannot write. Under "go run" the status shows as "exit status N"
and go run itself exits 1; for the status itself, build mcpc:
go build ./cmd/mcpc

Examples, from the root of the guide, by outcome (exit status):
  a result (0):
    go run ./cmd/mcpc call get_author '{"title":"Dune"}' -- go run ./chapters/01-tool-errors
    go run ./cmd/mcpc -era legacy tools -- go run ./chapters/02-protocol-errors
    go run ./cmd/mcpc templates -- go run ./chapters/03-resources
    go run ./cmd/mcpc raw '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' -- go run ./chapters/01-tool-errors
  a tool error (3):
    go run ./cmd/mcpc call get_author '{"title":"Nothing"}' -- go run ./chapters/01-tool-errors
    go run ./cmd/mcpc call get_author '{"title":42}' -- go run ./chapters/01-tool-errors
  a protocol error (4):
    go run ./cmd/mcpc call get_author '{"title":"Nothing"}' -- go run ./chapters/02-protocol-errors
    go run ./cmd/mcpc read books://Nothing -- go run ./chapters/03-resources
    go run ./cmd/mcpc raw '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' -- go run ./chapters/01-tool-errors
      (on purpose: a request with neither _meta nor an initialize first is -32602)
  a clean check (0):
    go run ./cmd/mcpc check -- go run ./chapters/03-resources
    go run ./cmd/mcpc -era modern check -lang fr -- go run ./chapters/01-tool-errors
  over Streamable HTTP: start a chapter on a port of its own, then ask it:
    go run ./chapters/01-tool-errors -http :8090 &
    go run ./cmd/mcpc -url http://127.0.0.1:8090/mcp call get_author '{"title":"Nothing"}'
    go run ./cmd/mcpc -url http://127.0.0.1:8090/mcp check

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs mcpc with args and returns its exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	era := client.EraAuto
	fs.TextVar(&era, "era", client.EraAuto, "the protocol `era`: auto (probe with server/discover, fall back to initialize), modern or legacy")
	timeout := fs.Duration("timeout", defaultTimeout, "give up after this long")
	url := fs.String("url", "", "ask the MCP endpoint at `URL` over Streamable HTTP instead of starting a server command (not with raw)")

	own, server := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		own, server = args[:i], args[i+1:]
	}
	if err := fs.Parse(own); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitResult
		}
		return exitFailure
	}
	cmdArgs := fs.Args()
	if len(cmdArgs) > 0 && cmdArgs[0] == "check" {
		ctx, cancel := context.WithTimeoutCause(ctx, *timeout, fmt.Errorf("-timeout %v ran out", *timeout))
		defer cancel()
		return checkCommand(ctx, cmdArgs[1:], server, *url, era, stdout, stderr)
	}
	if err := checkUsage(cmdArgs, server, *url); err != nil {
		fmt.Fprintf(stderr, "mcpc: %v\nRun 'mcpc -h' for usage.\n", err)
		return exitFailure
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if *url != "" {
		return ask(ctx, client.HTTP(*url, nil), era, cmdArgs, stdout, stderr)
	}
	cmd := exec.Command(server[0], server[1:]...)
	cmd.Stderr = stderr
	if cmdArgs[0] == "raw" {
		return raw(ctx, cmd, cmdArgs[1:], stdout, stderr)
	}
	return ask(ctx, client.Command(cmd), era, cmdArgs, stdout, stderr)
}

// arity gives, for each command, how many arguments it takes: at least
// min, at most max (-1 for no limit).
var arity = map[string]struct{ min, max int }{
	"tools":     {0, 0},
	"resources": {0, 0},
	"templates": {0, 0},
	"call":      {1, 2},
	"read":      {1, 1},
	"raw":       {1, -1},
}

// checkUsage checks the command, its arguments and the server command or
// URL.
func checkUsage(cmdArgs, server []string, url string) error {
	if len(cmdArgs) == 0 {
		return errors.New("no command given")
	}
	name, args := cmdArgs[0], cmdArgs[1:]
	a, ok := arity[name]
	switch {
	case !ok:
		return fmt.Errorf("unknown command %q", name)
	case len(args) < a.min || a.max >= 0 && len(args) > a.max:
		return fmt.Errorf("wrong number of arguments for %s", name)
	case name == "call" && len(args) == 2 && !json.Valid([]byte(args[1])):
		return fmt.Errorf("the arguments of call are not valid JSON: %s", args[1])
	case url != "" && len(server) > 0:
		return errors.New("give either -url or a server command after --, not both")
	case url != "" && name == "raw":
		return errors.New("raw sends lines to a server command over stdio; it does not take -url")
	case url == "" && len(server) == 0:
		return errors.New("no server command: give it after --")
	}
	return nil
}

// ask connects with the mcp client, runs one command and prints the
// server's responses to it.
func ask(ctx context.Context, tr client.Transport, era client.Era, cmdArgs []string, stdout, stderr io.Writer) int {
	t := &tap{Transport: tr}
	c, err := client.Connect(ctx, t, &client.Options{Era: era, ProbeTimeout: probeTimeout})
	if err != nil {
		// Only a protocol error has a response to show: the last one.
		if perr := (*mcp.Error)(nil); errors.As(err, &perr) && len(t.replies) > 0 {
			t.replies = t.replies[len(t.replies)-1:]
		} else {
			t.replies = nil
		}
		return report(t.replies, err, false, stdout, stderr)
	}
	t.replies = nil
	var isError bool
	switch cmdArgs[0] {
	case "tools":
		_, err = c.ListTools(ctx)
	case "resources":
		_, err = c.ListResources(ctx)
	case "templates":
		_, err = c.ListResourceTemplates(ctx)
	case "call":
		var args any
		if len(cmdArgs) == 3 {
			args = json.RawMessage(cmdArgs[2])
		}
		var res *mcp.CallToolResult
		res, err = c.CallTool(ctx, cmdArgs[1], args)
		isError = err == nil && res.IsError
	case "read":
		_, err = c.ReadResource(ctx, cmdArgs[1])
	}
	code := report(t.replies, err, isError, stdout, stderr)
	if cerr := c.Close(); cerr != nil {
		fmt.Fprintf(stderr, "mcpc: %v\n", cerr)
	}
	return code
}

// report prints the responses as indented JSON, says on stderr what went
// wrong if anything did, and returns the exit status.
func report(replies [][]byte, err error, isError bool, stdout, stderr io.Writer) int {
	for _, r := range replies {
		var b bytes.Buffer
		if json.Indent(&b, bytes.TrimSpace(r), "", "  ") != nil {
			b.Reset()
			b.Write(r)
		}
		b.WriteByte('\n')
		stdout.Write(b.Bytes())
	}
	var perr *mcp.Error
	switch {
	case errors.As(err, &perr):
		fmt.Fprintf(stderr, "mcpc: protocol error %d: %s\n", perr.Code, perr.Message)
		return exitProtocolError
	case err != nil:
		fmt.Fprintf(stderr, "mcpc: %v\n", err)
		return exitFailure
	case isError:
		fmt.Fprintln(stderr, "mcpc: tool error: the result has isError set")
		return exitToolError
	}
	return exitResult
}

// tap is a transport that keeps every response it carries, so that mcpc
// can print them as the server sent them.
type tap struct {
	client.Transport
	replies [][]byte
}

func (t *tap) Call(ctx context.Context, m *client.Outgoing) ([]byte, error) {
	line, err := t.Transport.Call(ctx, m)
	if err == nil {
		t.replies = append(t.replies, line)
	}
	return line, err
}
