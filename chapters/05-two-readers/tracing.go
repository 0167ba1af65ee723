//go:build !js

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcpbookshop/guide/mcp"
	"github.com/mcpbookshop/guide/mcp/otelmcp"
)

var traceStderr = flag.Bool("trace", false, "write a span for each request to stderr (stdout carries the protocol)")

// flushTimeout bounds the wait for the last spans on the way out, so that
// an OTLP endpoint that does not answer cannot hold the process.
const flushTimeout = 3 * time.Second

// tracing returns the options that make each request a span, and the
// function that flushes the spans when the server stops. Spans go over
// OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces variant) is
// set, as the OpenTelemetry SDK reads it; to stderr with -trace; nowhere
// otherwise. The exporter starts with the first request, once Main has
// parsed the flags. This file is left out of the browser build, which
// links no OpenTelemetry (see tracing_js.go).
func tracing() (*mcp.Options, func()) {
	var (
		once sync.Once
		tp   *sdktrace.TracerProvider
		rec  *otelmcp.Recorder
	)
	start := func() {
		tp, rec = startTracing()
	}
	observe := func(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
		if once.Do(start); rec == nil {
			return ctx, nil
		}
		return rec.Observe(ctx, req)
	}
	flush := func() {
		if once.Do(func() {}); tp == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		defer cancel()
		if err := tp.Shutdown(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "flushing the spans:", err)
		}
	}
	return &mcp.Options{Observe: observe}, flush
}

// startTracing returns the provider and recorder the environment and
// flags ask for, or nils for none.
func startTracing() (*sdktrace.TracerProvider, *otelmcp.Recorder) {
	var tp *sdktrace.TracerProvider
	switch {
	case os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		exp, err := otlptracehttp.New(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracing over OTLP:", err)
			return nil, nil
		}
		tp = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	case *traceStderr:
		exp, err := stdouttrace.New(stdouttrace.WithWriter(os.Stderr))
		if err != nil {
			fmt.Fprintln(os.Stderr, "tracing to stderr:", err)
			return nil, nil
		}
		tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	default:
		return nil, nil
	}
	rec, err := otelmcp.New(&otelmcp.Options{TracerProvider: tp})
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracing:", err)
		return nil, nil
	}
	return tp, rec
}
