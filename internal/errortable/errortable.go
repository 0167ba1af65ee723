// Package errortable hands package mcp's error table as data to the
// module's programs that judge other servers' answers against it (mcpc
// check), so that mcp need not export it. The data is mcp/errortable.json,
// which go generate writes from the table and package mcp embeds.
package errortable

// JSON is mcp/errortable.json: one row per error the server sends, with
// its reply (a JSON-RPC error or a tool result), code, message, data and
// HTTP statuses, named as the guide anchors them. Package mcp sets it when
// it is initialized, so it is set in every program that imports mcp;
// a reader imports mcp to make sure of it, and does not modify it.
var JSON []byte
