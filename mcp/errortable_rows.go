package mcp

import "bytes"

// ErrorTableJSON returns the error table as data (errortable.json): one row
// per error the server sends, with its reply (a JSON-RPC error or a tool
// result), code, message, data and HTTP statuses, named as the guide
// anchors them. A program that judges another server's answers against
// the guide's, as mcpc check does, reads the rows from it.
func ErrorTableJSON() []byte { return bytes.Clone(errorTableData) }
