// Package otelmcp records each request an [mcp.Server] serves as an
// OpenTelemetry span and a point of the mcp.server.operation.duration
// metric, as the semantic conventions for the Model Context Protocol say.
//
// It follows the OpenTelemetry GenAI semantic conventions v0.1.0, the page
// "Semantic conventions for Model Context Protocol (MCP)"
// (https://github.com/open-telemetry/semantic-conventions-genai/blob/v0.1.0/docs/gen-ai/mcp.md),
// whose status is development: names and rules may still change, and this
// package follows the version it names, not whatever is newest.
//
// A [Recorder] is an observer of the core ([mcp.Options.Observe]), so
// package mcp, and every program that does not import this package, links
// none of OpenTelemetry:
//
//	rec, err := otelmcp.New(&otelmcp.Options{TracerProvider: tp, MeterProvider: mp})
//	if err != nil {
//		log.Fatal(err)
//	}
//	s := mcp.NewServer("Bookshop", "1.0.0", &mcp.Options{Observe: rec.Observe})
//
// Each request the server reads as one gets a span of kind SERVER named
// "{mcp.method.name} {target}", the target being the tool of a tools/call
// ("tools/call get_author"), else just the method ("resources/read").
// When the request fails, the span has the attribute error.type and the
// status ERROR, whose description is the message the client was sent:
//
//   - a JSON-RPC error: error.type is its code ("-32602"), also recorded as
//     rpc.response.status_code, and the description its message, which
//     may name the tool or the URI ("Unknown resource: shelf://9"), as
//     the server's error table writes them;
//   - a tool error (a CallToolResult with isError set, a panic in a tool
//     included): error.type is "tool_error", and the description the text
//     of the result's first text block, what the model reads;
//   - a cancellation: see [ErrorTypeCancelled] and [ErrorTypeTimeout].
//
// The target, and the attribute gen_ai.tool.name on the span and the
// metric, is the tool's name as the client sent it, whether the server has
// that tool or not (the row unknown-tool): the conventions make no
// exception.
//
// A request that succeeds has no error.type and an unset status. Messages
// the server does not read as requests (a line that is not JSON, an HTTP
// request refused for its origin, host, headers or body size before its
// body is read) have no method, so they get no span: their errors reach the
// server's log only.
//
// A client's trace continues on the server: the W3C Trace Context a
// client puts in params._meta ("traceparent", "tracestate"; package
// mcp/client sends it with [TraceContext] as its Options.TraceContext) is
// the span's parent, and the span already in the request's context, if
// any (an HTTP server span, say), is linked, as the conventions ask.
//
// By default, nothing the conventions flag as sensitive or high in
// cardinality is recorded where they advise against it: no tool arguments
// or results (gen_ai.tool.call.arguments and .result are opt-in, and this
// package offers neither), and no resource URI in a span's name or in the
// metric's attributes (see [Options.URIInSpanName] and
// [Options.URIInMetrics]). The URI of a resources/read is the span
// attribute mcp.resource.uri, which the conventions require on spans.
//
// Two attributes the conventions recommend are left out because the core
// does not tell its observer about them: mcp.session.id, and
// network.protocol.version of an HTTP request.
package otelmcp
