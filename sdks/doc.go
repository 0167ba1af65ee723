// Package sdks holds the Bookshop written with other Go MCP SDKs, one
// module each, so that the guide's module depends on none of them: gosdk/
// is the official Go SDK's, mcpgo/ is mcp-go's. Each module pins its
// servers' replies with the guide's exchange and pin commands.
//
// This package is only the root module's way into them: go generate ./...
// from the repository's root runs the lines below, which refresh the SDK
// modules' pins as it refreshes the chapters'. In each module, every
// main's test has a generate line that runs its scripts with -update.
package sdks

//go:generate go -C gosdk generate ./...
//go:generate go -C mcpgo generate ./...
