// Package errs is a fixture: an error table as the core's errortable.go
// writes one.
package errs

import "log/slog"

// CodeFull is the code of a full shelf.
const CodeFull = -32001

// Column constants.
const (
	toolResult = 1
	noHTTP     = 0
	byCode     = -1
)

type errorRow struct {
	code           int
	message, data  string
	legacy, modern int
	level          slog.Level
}

type errKind int

const (
	errShelfFull errKind = iota
	errBookLost
	errHTTPOnly
)

var errorTable = [...]errorRow{
	errShelfFull: {CodeFull, "the shelf <shelf> is full", `{"shelf":<shelf>}`, 200, byCode, slog.LevelWarn},
	errBookLost:  {toolResult, "Lost: <title>", "", 200, 200, slog.LevelInfo},
	errHTTPOnly:  {CodeFull, "over HTTP", "a text", 403, noHTTP, slog.LevelError},
}
