module github.com/mcpbookshop/guide/sdks/mcpgo

go 1.26.0

require (
	github.com/mark3labs/mcp-go v1.2.1
	github.com/mcpbookshop/guide v0.0.0-00010101000000-000000000000
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)

// The tests pin each Bookshop with the guide's own testscript commands
// (internal/exchange), from the guide's module in this repository.
replace github.com/mcpbookshop/guide => ../..
