package sdks

// go generate ./... from the guide's root refreshes the pins of the mcp-go
// Bookshops too (sdks/mcpgo, a module of its own, which ./... here does not
// reach): this line runs its own go generate, whose go:generate lines run
// each main's scripts with -update.
//
//go:generate go -C mcpgo generate ./...
