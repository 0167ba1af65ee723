package mcptest

// Version is the protocol version of the modern era, which [Meta] and
// [Headers] send; mcp's tests hold it to mcp.ModernVersion.
const Version = "2026-07-28"

// Meta is the _meta member of a modern request's params, without braces
// around it: the protocol version and the client's (empty) capabilities.
const Meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + Version + `","io.modelcontextprotocol/clientCapabilities":{}}`

// Request returns a modern request line of method with id (JSON, as `1`
// or `"a"`), whose params are the members params (as `"uri":"x"`, or ""
// for none) followed by [Meta].
func Request(id, method, params string) string {
	if params != "" {
		params += ","
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + Meta + `}}`
}

// ToolCall returns a modern tools/call line calling the tool name with
// args (a JSON value, normally an object).
func ToolCall(id, name, args string) string {
	return Request(id, "tools/call", `"name":"`+name+`","arguments":`+args)
}

// ReadCall returns a modern resources/read line reading uri.
func ReadCall(id, uri string) string {
	return Request(id, "resources/read", `"uri":"`+uri+`"`)
}
