package otelmcp

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpbookshop/guide/mcp"
)

// ScopeName is the instrumentation scope of the tracer and the meter a
// [Recorder] uses.
const ScopeName = "github.com/mcpbookshop/guide/mcp/otelmcp"

// Options configures a [Recorder]. The zero value records through the
// global providers, reads the W3C Trace Context, and records nothing
// sensitive.
type Options struct {
	// TracerProvider makes the spans; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider
	// MeterProvider makes the duration histogram; nil means
	// otel.GetMeterProvider().
	MeterProvider metric.MeterProvider
	// Propagator reads the trace context a request carries in
	// params._meta; nil means propagation.TraceContext, the W3C Trace
	// Context the conventions show.
	Propagator propagation.TextMapPropagator

	// URIInSpanName opts in to naming the span of a resources/read after
	// its URI ("resources/read shelf://1"). The conventions allow it but
	// advise against it by default: a URI makes span names high in
	// cardinality, and may name what not everyone who reads the traces
	// should read.
	URIInSpanName bool
	// URIInMetrics opts in to the attribute mcp.resource.uri on the
	// duration metric, which the conventions make opt-in: each URI is a
	// time series of its own.
	URIInMetrics bool
	// RecordCauses opts in to an "exception" event on the span of a failed
	// request, with [mcp.Outcome]'s Err: the handler's own error, or the
	// cause the server withheld from the client ("Internal error"), and,
	// for a panic, the stack of the panicking goroutine. Off by default:
	// a withheld cause is withheld because it may hold what only the
	// server's operators should read (a query, a path), and the server
	// already logs it.
	RecordCauses bool
}

// A Recorder records the requests of the servers whose
// [mcp.Options.Observe] is its [Recorder.Observe]. It is safe for
// concurrent use; one Recorder may serve several servers.
type Recorder struct {
	opts     Options
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	duration metric.Float64Histogram
}

// durationBuckets are the explicit bucket boundaries, in seconds, the
// conventions give for mcp.server.operation.duration.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// New returns a Recorder configured by opts, which may be nil. It fails
// only if the meter provider refuses the histogram.
func New(opts *Options) (*Recorder, error) {
	r := &Recorder{}
	if opts != nil {
		r.opts = *opts
	}
	tp, mp := r.opts.TracerProvider, r.opts.MeterProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	r.prop = r.opts.Propagator
	if r.prop == nil {
		r.prop = propagation.TraceContext{}
	}
	r.tracer = tp.Tracer(ScopeName)
	var err error
	r.duration, err = mp.Meter(ScopeName).Float64Histogram(MetricServerOperationDuration,
		metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		return nil, fmt.Errorf("otelmcp: the meter provider refused the histogram %s: %w", MetricServerOperationDuration, err)
	}
	return r, nil
}

// Observe is an [mcp.Options.Observe]: it starts the span of the request
// req, runs the request with a context that holds it, and returns the
// function that ends the span and records the request's duration.
func (r *Recorder) Observe(ctx context.Context, req mcp.RequestInfo) (context.Context, func(mcp.Outcome)) {
	parent, links := r.parent(ctx, req)
	common := commonAttributes(req)
	spanAttrs := append(common[:len(common):len(common)], spanAttributes(req)...)
	ctx, span := r.tracer.Start(parent, spanName(req, r.opts.URIInSpanName),
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(spanAttrs...),
		trace.WithLinks(links...))
	return ctx, func(out mcp.Outcome) {
		f := classify(out)
		var failed []attribute.KeyValue
		if f.errorType != "" {
			failed = append(failed, ErrorTypeKey.String(f.errorType))
		}
		if f.statusCode != "" {
			failed = append(failed, RPCResponseStatusCodeKey.String(f.statusCode))
		}
		if f.errorType != "" {
			span.SetAttributes(failed...)
			span.SetStatus(codes.Error, f.description)
			if r.opts.RecordCauses && out.Err != nil {
				recordCause(span, out.Err)
			}
		}
		span.End()

		m := append(common, failed...)
		if r.opts.URIInMetrics && req.Method == "resources/read" && req.Name != "" {
			m = append(m, ResourceURIKey.String(req.Name))
		}
		r.duration.Record(ctx, out.Duration.Seconds(), metric.WithAttributeSet(attribute.NewSet(m...)))
	}
}

// parent returns the context the span of req starts in, and the links it
// gets. The conventions make the trace context in params._meta the
// parent, and link the span already in ctx (an HTTP server's, say); with
// none in params._meta, or one the propagator cannot read, the span in ctx,
// if any, is the parent.
func (r *Recorder) parent(ctx context.Context, req mcp.RequestInfo) (context.Context, []trace.Link) {
	if req.Traceparent == "" {
		return ctx, nil
	}
	carrier := propagation.MapCarrier{"traceparent": req.Traceparent}
	if req.Tracestate != "" {
		carrier["tracestate"] = req.Tracestate
	}
	remote := r.prop.Extract(ctx, carrier)
	ambient, sent := trace.SpanContextFromContext(ctx), trace.SpanContextFromContext(remote)
	if !sent.IsValid() || sameSpan(sent, ambient) {
		return ctx, nil // nothing read, or the span in ctx is the one sent (a client in process)
	}
	if ambient.IsValid() {
		return remote, []trace.Link{{SpanContext: ambient}}
	}
	return remote, nil
}

// sameSpan reports whether a and b identify the same span.
func sameSpan(a, b trace.SpanContext) bool {
	return a.TraceID() == b.TraceID() && a.SpanID() == b.SpanID()
}

// recordCause adds an "exception" event for err to span, with the stack of
// the panicking goroutine when err is a panic.
func recordCause(span trace.Span, err error) {
	var p *mcp.PanicError
	if errors.As(err, &p) {
		span.RecordError(err, trace.WithAttributes(attribute.String("exception.stacktrace", string(p.Stack))))
		return
	}
	span.RecordError(err)
}
