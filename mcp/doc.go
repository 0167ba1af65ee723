// Package mcp is a small Model Context Protocol server core, written to teach
// how an MCP server reports failure.
//
// A server is a name and a version, its tools and resources, and a call to
// [Main]:
//
//	s := mcp.NewServer("Bookshop", "1.0.0", nil)
//	mcp.AddTool(s, mcp.Tool{Name: "get_author", Description: "Look up the author of a book."},
//		func(ctx context.Context, args struct {
//			Title string `json:"title"`
//		}) (string, error) {
//			if args.Title != "Dune" {
//				return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
//			}
//			return "Frank Herbert", nil
//		})
//	mcp.Main(s)
//
// The model that calls get_author with "Nothing" reads "Error executing
// tool get_author: No book titled 'Nothing' in the catalog." and can try
// again; the example of the package shows both answers on the wire.
//
// A [Server] holds tools and resources and speaks JSON-RPC 2.0 to one client
// per connection: one message per line over stdio ([Server.Serve], [Main]) or
// any reader and writer pair, or Streamable HTTP ([Server.HTTPHandler],
// [Server.ServeStreamableHTTP]). Compiled for a browser (GOOS=js
// GOARCH=wasm), [Main] hands the server to the page instead of serving
// stdin, and the HTTP server and the client are left out of the build.
//
// [Server.NewSession] opens a connection served message by message, with no
// stream in between ([Session.Handle]). Package
// [github.com/mcpbookshop/guide/mcp/client], beside this one as
// net/http/httptest is beside net/http, is a client that reaches a server
// over stdio, HTTP or such a Session, and shows each failure as a caller
// sees it.
//
// [Options.Observe] sees each request start, with the W3C trace context
// its client put in params._meta, and may give it the context it runs
// with (one holding a trace span, say); it sees each request end with its
// [Outcome]: a result, a tool error, a protocol error and the row of the
// error table it came from, or a cancellation, with the failure as a Go
// value. Left nil, it costs nothing.
//
// # Protocol eras
//
// The server is dual-era. A request whose params carry
// _meta["io.modelcontextprotocol/protocolVersion"] is served statelessly at
// that version (only "2026-07-28" is modern today); an "initialize" request
// selects the legacy, session-based protocol for the rest of the connection,
// negotiated among [LegacyVersions]. A request with neither is answered with
// an [Error] of code [CodeInvalidParams] that says what is missing.
//
// # The error model
//
// What a handler returns decides what the client sees:
//
//   - A tool handler's ordinary Go error becomes a tool result with isError
//     set and the text "Error executing tool <name>: <err>", which the model
//     reads and can correct itself from.
//   - A tool or resource handler's *[Error], also wrapped, becomes the
//     JSON-RPC error with that code, message and data, verbatim: the host sees
//     it, the model does not.
//   - A resource handler's [ResourceNotFoundError] becomes -32602 with the
//     handler's message and data {"uri": <requested uri>}.
//   - Arguments that fail a tool's input schema are rejected before the
//     handler runs, as a tool error naming each field and the problem.
//   - A panic in a handler is recovered: the client gets a bare tool error or
//     an internal error, and the stack goes to the log, in one entry that
//     carries the request id.
//   - A request cancelled while its handler runs (the client sent
//     notifications/cancelled, or, in the 2026-07-28 era, closed its HTTP
//     request and the handler returned the cancellation) gets no response
//     at all; the log says the request was cancelled. Up to 2025-11-25 a
//     closed HTTP request is no cancellation: the handler runs on, and its
//     reply is written (see [Server.HTTPHandler]).
//
// A handler makes these errors with one naming rule: the function X returns
// an *XError, which errors.As finds wrapped or not. [ResourceNotFound] returns
// a [ResourceNotFoundError], [ResourceFailure] a [ResourceFailureError] (an
// expected failure other than "not found", sent with its message), and
// [Internal] an [InternalError] (a tool failure whose text stays in the log).
// [Error] and [ToolError], which carry more than a message, are written as
// literals.
//
// Every tool error and protocol error is also logged as one structured line
// on the server's [log/slog] logger (stderr by default). [Options.Observe]
// sees each failure of a request, and each cancelled request, in its
// [Outcome], whose Err is the failure as a Go value: a handler's error, a
// *[PanicError], an *[ArgumentsError], or the *[Error] sent. The errors the
// server sends are one table, in errortable.go: each with its code,
// message, data, HTTP status and log level.
//
// # Speed
//
// Most of the core is written the plain way. A few paths that every call
// takes are written for speed instead, the scanner of request lines and
// the results written by hand among them, each held by tests to the plain
// way it replaces and timed beside it by a benchmark. The guide's page
// "Inside the core" follows one call through them; the doc comment of
// BenchmarkFastPaths, in fastpaths_bench_test.go, lists them all, with the
// tests and benchmarks of each.
package mcp
