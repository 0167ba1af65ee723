package mcptest_test

import (
	"fmt"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

func ExampleToolCall() {
	fmt.Println(mcptest.ToolCall("1", "get_author", `{"title":"Dune"}`))
	fmt.Println(mcptest.ReadCall(`"r"`, "books://Dune"))
	fmt.Println(mcptest.Request("2", "tools/list", ""))
	// Output:
	// {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
	// {"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"books://Dune","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
	// {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
}
