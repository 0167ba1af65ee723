module github.com/mcpbookshop/guide/sdks/gosdk

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/mcpbookshop/guide v0.0.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.36.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/time v0.15.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)

// The tests use the guide's exchange and pin commands (internal/exchange),
// from this repository.
replace github.com/mcpbookshop/guide => ../..
