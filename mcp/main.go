//go:build !js

package mcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Main runs s as a program: it serves MCP on stdin and stdout until stdin
// ends or the process is interrupted, then exits. With -http ADDR it
// serves Streamable HTTP instead (see [Server.ServeStreamableHTTP] and
// [HTTPAddr]). Logs go to stderr; stdout carries protocol messages only.
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
		fmt.Fprintf(fs.Output(), "usage: %s [-http ADDR]\n\n%s serves MCP on stdin and stdout, one JSON-RPC message per line,\nor over Streamable HTTP with -http.\n\n", fs.Name(), s.info.Name)
		fs.PrintDefaults()
	}
	httpAddr := fs.String("http", "", "serve MCP over Streamable HTTP at `ADDR` instead of stdio, at the path "+DefaultHTTPPath+`;
":8080" listens on 127.0.0.1 only, "0.0.0.0:8080" on every interface`)
	fs.Parse(os.Args[1:])
	if *httpAddr != "" {
		mainHTTP(s, *httpAddr)
		return
	}
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		fmt.Fprintf(os.Stderr, terminalHint, s.info.Name)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		os.Stdin.Close() // unblocks the read; Serve then returns ctx's error
	}()
	if err := s.Serve(ctx, os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
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
