// Package check puts the guide's lessons to work on any MCP server: it
// finds which eras a server speaks, sends each lesson's requests (an unknown
// tool, arguments that break a tool's schema, a line that is not JSON, ...),
// built from what the server lists and nothing else, and judges every answer
// with one function, [Judge], against the rows of the guide's error table
// (mcp/errortable.go) and the spec's MUSTs and SHOULDs. mcpc check is its
// command line; the tests that hold the chapters and Your SDK to the guide
// call the same judge.
//
// A verdict compares the class of an answer, never its bytes: a tool result
// with isError or a JSON-RPC error, its code, the id it echoes, the keys of
// its data, and the HTTP status in each era. Text is read only for what
// leaks: every text received is scanned for stack traces, SQL and driver
// errors, and source paths ([Leaks]).
package check
