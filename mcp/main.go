//go:build !js

package mcp

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Main runs s as a program: it serves MCP on stdin and stdout until stdin
// ends or the process gets SIGINT or SIGTERM, then answers the requests
// still running and returns. With -http ADDR it serves Streamable HTTP
// instead (see [Server.ServeStreamableHTTP]; a bare port, ":8080", listens
// on 127.0.0.1 only), and with -session-prefix starts its legacy session ids
// with a prefix (see [HTTPOptions.SessionIDPrefix]). Logs go to stderr;
// stdout carries protocol messages only.
// When stdin is a terminal it first prints a hint on stderr, since a
// person, not an MCP client, is typing.
//
// Main is all a server's func main needs to call after registering its tools
// and resources.
//
// Main adds -http and -session-prefix to package flag's command line and
// parses it, so a program's own flags, defined with package flag before
// Main is called, are parsed with them, and -h lists them all. Their
// values are set once Main has started, before any request is served:
//
//	var greeting = flag.String("greeting", "Hello", "the `WORD` to greet with")
//
//	func main() {
//		s := mcp.NewServer("Greeter", "1.0.0", nil)
//		mcp.AddTool(s, mcp.Tool{Name: "greet"}, func(ctx context.Context, args greetArgs) (string, error) {
//			return *greeting + ", " + args.Name + "!", nil
//		})
//		mcp.Main(s) // greeter -greeting Hi
//	}
//
// Such a program must not call flag.Parse itself: -http would not be
// defined yet.
func Main(s *Server) {
	defer func() {
		// A panic ends the program: the log lines before it go first.
		if v := recover(); v != nil {
			s.flushLog()
			panic(v)
		}
	}()
	fs := flag.CommandLine
	synopsis := "[-http ADDR [-session-prefix PREFIX]]"
	if hasFlags(fs) {
		synopsis += " [flags]" // the program's own
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s %s\n\n%s serves MCP on stdin and stdout, one JSON-RPC message per line,\nor over Streamable HTTP with -http.\n\n", fs.Name(), synopsis, s.info.Name)
		fs.PrintDefaults()
	}
	httpAddr := fs.String("http", "", "serve MCP over Streamable HTTP at `ADDR` instead of stdio, at the path "+DefaultHTTPPath+`;
":8080" listens on 127.0.0.1 only, "0.0.0.0:8080" on every interface`)
	prefix := fs.String("session-prefix", "", "with -http, start every legacy-era session id with `PREFIX`, so that a load balancer\nin front of several processes can route a session to the one holding it")
	fs.Parse(os.Args[1:])
	if *httpAddr != "" {
		mainHTTP(s, *httpAddr, &HTTPOptions{SessionIDPrefix: *prefix})
		return
	}
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		fmt.Fprintf(os.Stderr, terminalHint, s.info.Name)
	}
	// A signal ends the input as its end would: the requests running are
	// answered, then Main returns. Closing os.Stdin would not do: a read of
	// a pipe or terminal that stays open blocks even once the file is closed.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	stop := make(chan struct{})
	go func() {
		<-signals
		close(stop)
	}()
	if err := s.serve(context.Background(), stop, os.Stdin, os.Stdout); err != nil {
		s.log.Error("serving stdio", "error", err)
		s.flushLog()
		os.Exit(1)
	}
}

// hasFlags reports whether fs has flags defined.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// terminalHint is what Main prints on stderr when stdin is a terminal; %s is
// the server's name.
const terminalHint = `%s is an MCP server: it speaks JSON-RPC 2.0 on stdin and stdout, one message per line.
It is waiting for an MCP client, not a person. Paste a request such as

  {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}

or press Ctrl-D to quit. To use it from an MCP host or the Inspector, give them this command.
`
