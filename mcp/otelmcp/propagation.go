package otelmcp

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
)

// TraceContext returns the W3C Trace Context of the span in ctx, as the
// values of "traceparent" and "tracestate" in params._meta; "" and "" when
// ctx holds no valid span. It is package mcp/client's
// Options.TraceContext, so that a call made in a span continues its
// trace on a server a [Recorder] observes:
//
//	c, err := client.Connect(ctx, t, &client.Options{TraceContext: otelmcp.TraceContext})
func TraceContext(ctx context.Context) (traceparent, tracestate string) {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"], carrier["tracestate"]
}
