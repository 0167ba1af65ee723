package check

// The sentences of the specifications that verdicts quote.
var (
	qReply = &Quote{"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.",
		"JSON-RPC 2.0, 5 Response object"}
	qSameID = &Quote{"Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).",
		"MCP 2025-11-25, basic"}
	qNullID = &Quote{"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null.",
		"JSON-RPC 2.0, 5 Response object"}
	qStdout = &Quote{"The server MUST NOT write anything to its stdout that is not a valid MCP message.",
		"MCP 2025-11-25, basic/transports (stdio)"}
	qValidate = &Quote{"Servers MUST: Validate all tool inputs",
		"MCP 2025-11-25, server/tools (Security Considerations)"}
	qToolErrorsInResult = &Quote{"Any errors that originate from the tool SHOULD be reported inside the result object, with isError set to true, not as an MCP protocol-level error response.",
		"MCP 2025-11-25, schema (CallToolResult.isError)"}
	qFindingTool = &Quote{"However, any errors in finding the tool, an error indicating that the server does not support tool calls, or any other exceptional conditions, should be reported as an MCP error response.",
		"MCP 2025-11-25, schema (CallToolResult.isError)"}
	qMethodHTTP = &Quote{"If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601.",
		"MCP 2026-07-28, basic/transports/streamable-http"}
	qVersion = &Quote{"If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support.",
		"MCP 2026-07-28, basic/versioning"}
	qNegotiate = &Quote{"If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.",
		"MCP 2025-11-25, basic/lifecycle"}
	qNotFound = &Quote{"If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602 (Invalid Params).",
		"MCP 2026-07-28, server/resources"}
	qNoEmptyContents = &Quote{"Servers MUST NOT return an empty contents array for a non-existent resource.",
		"MCP 2026-07-28, server/resources"}
	qRetired = &Quote{"Implementations of this protocol version MUST NOT emit these codes: -32002 — resource not found (2025-11-25 and earlier; replaced by -32602).",
		"MCP 2026-07-28, basic (Error Codes)"}
	qNotFoundLegacy = &Quote{"Servers SHOULD return standard JSON-RPC errors for common failure cases: Resource not found: -32002",
		"MCP 2025-11-25, server/resources"}
	qDataURI = &Quote{"The data field SHOULD include the uri that was not found.",
		"SEP-2164 (MCP 2026-07-28)"}
	qOutput = &Quote{"If an output schema is provided: Servers MUST provide structured results that conform to this schema.",
		"MCP 2025-11-25, server/tools (Output Schema)"}
)
