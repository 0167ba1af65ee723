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
// instead (see [Server.ServeStreamableHTTP] and [HTTPAddr]), and with
// -session-prefix starts its legacy session ids with a prefix (see
// [HTTPOptions.SessionIDPrefix]). Logs go to stderr; stdout carries protocol messages only.
// When stdin is a terminal it first prints a hint on stderr, since a
// person, not an MCP client, is typing.
//
// Main is all a server's func main needs to call after registering its tools
// and resources.
func Main(s *Server) {
	defer func() {
		// A panic ends the program: the log lines before it go first.
		if v := recover(); v != nil {
			s.flushLog()
			panic(v)
		}
	}()
	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [-http ADDR [-session-prefix PREFIX]]\n\n%s serves MCP on stdin and stdout, one JSON-RPC message per line,\nor over Streamable HTTP with -http.\n\n", fs.Name(), s.info.Name)
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

// terminalHint is what Main prints on stderr when stdin is a terminal; %s is
// the server's name.
const terminalHint = `%s is an MCP server: it speaks JSON-RPC 2.0 on stdin and stdout, one message per line.
It is waiting for an MCP client, not a person. Paste a request such as

  {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}

or press Ctrl-D to quit. To use it from an MCP host or the Inspector, give them this command.
`
