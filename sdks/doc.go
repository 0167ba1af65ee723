// Package sdks holds the Bookshop written with other Go MCP SDKs, one
// module each, so that the guide's module depends on none of them: gosdk/
// is the official Go SDK's, mcpgo/ is mcp-go's. Each module pins its
// servers' replies with the guide's exchange and pin commands.
//
// go generate ./... from the repository's root refreshes the SDK modules'
// pins as it refreshes the chapters' (see internal/refresh); in a module,
// go test ./MAIN -run '^TestScripts$' -update refreshes one main's.
package sdks
