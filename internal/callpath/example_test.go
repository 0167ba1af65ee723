package callpath_test

import (
	"fmt"
	"log"
	"os"

	"github.com/mcpbookshop/guide/internal/callpath"
)

// The summary of chapter 01's success as pinned: the line callpath prints
// last for that case, measured by go generate ./... (run from the module's
// root, the command prints the same line).
func ExamplePinCase_Summary() {
	pin, err := callpath.ReadPin(os.DirFS("../.."), callpath.PinFile)
	if err != nil {
		log.Fatal(err)
	}
	c, _ := pin.Case("success")
	fmt.Println(c.Summary())
	// Output:
	// success: 48 functions in 8 files, 3 packages; 61 with closures in 8 files, 3 packages
}
