//go:build !js

package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpbookshop/guide/internal/listenaddr"
)

// Timeouts of the HTTP server [Server.ServeStreamableHTTP] runs.
const (
	// httpReadHeaderTimeout bounds reading a request's headers.
	httpReadHeaderTimeout = 10 * time.Second
	// httpReadTimeout bounds reading a whole request.
	httpReadTimeout = 30 * time.Second
	// httpWriteTimeout bounds serving a request, from the end of its headers.
	httpWriteTimeout = 2 * time.Minute
	// httpIdleTimeout closes a kept-alive connection left unused.
	httpIdleTimeout = 2 * time.Minute
)

// ServeStreamableHTTP serves MCP over Streamable HTTP on ln, at opts.Path,
// until ctx is done. It then stops accepting connections, waits for the
// requests in flight to finish (at most [Options.ShutdownTimeout], after
// which it cancels them, legacy sessions' included) and returns nil. Reading and writing each request are bounded by timeouts.
// It returns early with the error of a listener that fails. opts may be
// nil.
func (s *Server) ServeStreamableHTTP(ctx context.Context, ln net.Listener, opts *HTTPOptions) error {
	defer s.flushLog()
	path := DefaultHTTPPath
	if opts != nil && opts.Path != "" {
		path = opts.Path
	}
	mux := http.NewServeMux()
	h := s.HTTPHandler(opts).(*httpHandler)
	mux.Handle(path, h)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: httpReadHeaderTimeout,
		ReadTimeout:       httpReadTimeout,
		WriteTimeout:      httpWriteTimeout,
		IdleTimeout:       httpIdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		s.log.Warn("shutdown: requests still running after the timeout", "timeout", s.opts.ShutdownTimeout)
		h.sessions.endAll(errShutdown) // the legacy era's handlers, which a closed connection does not cancel
		hs.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// mainHTTP is [Main] with -http: it serves s over Streamable HTTP at addr,
// with opts, until SIGINT or SIGTERM, then shuts down gracefully and returns. It
// announces the endpoint's URL on stderr.
func mainHTTP(s *Server, addr string, opts *HTTPOptions) {
	addr, err := listenaddr.Resolve(addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: -http: %v\n", os.Args[0], err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.log.Error("listening", "error", err)
		s.flushLog()
		os.Exit(1)
	}
	// The signals are caught before the endpoint is announced: a process
	// that reads the announcement and at once sends SIGTERM (a test, a
	// supervisor) must see a graceful shutdown, not the default death.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "%s serves MCP over Streamable HTTP at http://%s%s\n", s.info.Name, ln.Addr(), DefaultHTTPPath)
	if err := s.ServeStreamableHTTP(ctx, ln, opts); err != nil {
		s.log.Error("serving HTTP", "error", err)
		s.flushLog()
		os.Exit(1)
	}
}
