// Package sdks holds the Bookshop written with other Go MCP SDKs, one
// module each, so that the guide's module depends on none of them:
// gosdk/ is the official Go SDK's. Each module pins its servers' replies
// with the guide's exchange and pin commands.
//
// This package is only the root module's way into them: go generate ./...
// from the repository's root runs the line below, which refreshes the SDK
// modules' pins as it refreshes the chapters'.
package sdks

//go:generate go -C gosdk generate ./...
