package client

import (
	"context"
	"testing"
)

// BenchmarkCallTool times one tools/call through a Conn to a server in the
// same process: encoding the request, the server's whole path, and decoding
// the result. When the client's responses were first decoded with the
// encoding/json-compatible engine of go-json-experiment/json instead of
// encoding/json, a call went from about 45 allocations to 30. Run it with
//
//	go test -run '^$' -bench CallTool -benchmem ./mcp/client/
func BenchmarkCallTool(b *testing.B) {
	for _, era := range []Era{EraModern, EraLegacy} {
		b.Run(era.String(), func(b *testing.B) {
			ctx := context.Background()
			c, err := Connect(ctx, InProcess(newClientTestServer()), &Options{Era: era})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			args := struct {
				Text string `json:"text"`
			}{"Dune"}
			b.ReportAllocs()
			for b.Loop() {
				res, err := c.CallTool(ctx, "echo", args)
				if err != nil || res.IsError {
					b.Fatalf("echo: %+v, %v", res, err)
				}
			}
		})
	}
}
