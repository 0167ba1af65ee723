//go:build !js

package mcp

import "net/http"

// The HTTP statuses of the error table's rows live apart from the table, so
// that the browser build (GOOS=js), which has no HTTP server, links no
// net/http.

// httpStatus returns the HTTP status of a response carrying e, in a legacy
// session or served statelessly; e is nil for a result.
func (e *Error) httpStatus(modern bool) int {
	if e == nil {
		return http.StatusOK
	}
	status := e.kind.row().legacy
	if modern {
		status = e.kind.row().modern
	}
	switch status {
	case byCode:
		return codeStatus(e.Code)
	case noHTTP:
		return http.StatusInternalServerError // a row that says it cannot arise did
	}
	return status
}

// codeStatus is the status of a stateless response carrying a handler's
// error with the given code: the request's fault (400, 404 for a method
// not found) for the codes that say so, 200 for the rest, which are the
// server's.
func codeStatus(code int) int {
	switch code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeParseError, CodeInvalidRequest, CodeInvalidParams, CodeHeaderMismatch,
		CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
