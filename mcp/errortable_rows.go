package mcp

import (
	_ "embed"

	"github.com/mcpbookshop/guide/internal/errortable"
)

// errorTableData is the error table as data (see TestErrorTableData).
//
//go:embed errortable.json
var errorTableData []byte

// init hands the table as data to the module's own readers (mcpc check)
// through internal/errortable, outside this package's API.
func init() { errortable.JSON = errorTableData }
