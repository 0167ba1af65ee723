// Package mcptest is the harness the module's tests share to talk to an MCP
// server: the request lines of a modern client and the _meta they carry
// ([Meta], [ToolCall], [ReadCall], [Request]), the HTTP POST a conforming
// client sends ([NewPost], [Post], [Headers]), and responses decoded into
// plain structs ([DecodeReply]).
//
// It imports nothing of the module, so the tests of package mcp itself,
// which live in package mcp, can import it without a cycle. Only tests
// import it.
package mcptest
