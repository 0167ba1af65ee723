package check

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sync"

	"github.com/mcpbookshop/guide/internal/errortable"
	"github.com/mcpbookshop/guide/mcp" // which sets errortable.JSON
)

// row is a row of the guide's error table, as internal/errortable holds it:
// the class of the answer the guide sends.
type row struct {
	Name       string `json:"name"`
	Reply      string `json:"reply"` // "error", "toolResult" or "handlerError"
	Code       int    `json:"code"`
	Data       string `json:"data"`
	HTTPLegacy int    `json:"httpLegacy"`
	HTTPModern int    `json:"httpModern"`
}

// rows returns the error table's rows by name.
var rows = sync.OnceValue(func() map[string]*row {
	var table struct{ Rows []*row }
	if err := json.Unmarshal(errortable.JSON, &table); err != nil {
		panic("check: the error table does not decode: " + err.Error())
	}
	if len(table.Rows) == 0 {
		panic("check: the error table has no rows; is package mcp imported?")
	}
	m := make(map[string]*row, len(table.Rows))
	for _, r := range table.Rows {
		m[r.Name] = r
	}
	return m
})

// guideRow returns the row called name; a lesson naming a row the table
// lacks is a programming error, which the tests catch.
func guideRow(name string) *row {
	r := rows()[name]
	if r == nil {
		panic("check: no row " + name + " in the error table")
	}
	return r
}

// dataKeyPattern finds the names of a JSON object template's members.
var dataKeyPattern = regexp.MustCompile(`"([^"]+)":`)

// dataKeys returns the keys the row's data holds when it is an object.
func (r *row) dataKeys() []string {
	if r.Data == "" || r.Data[0] != '{' {
		return nil
	}
	var keys []string
	for _, m := range dataKeyPattern.FindAllStringSubmatch(r.Data, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// status returns the HTTP status the guide sends the row with, in a
// legacy session or served statelessly; 0 where the row does not arise
// over HTTP.
func (r *row) status(modern bool) int {
	s := r.HTTPLegacy
	if modern {
		s = r.HTTPModern
	}
	if s == -1 { // by code, as mcp's codeStatus decides
		switch r.Code {
		case mcp.CodeMethodNotFound:
			return http.StatusNotFound
		case mcp.CodeParseError, mcp.CodeInvalidRequest, mcp.CodeInvalidParams:
			return http.StatusBadRequest
		}
		return http.StatusOK
	}
	return s
}
