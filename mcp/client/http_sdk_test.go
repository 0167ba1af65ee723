package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpbookshop/guide/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPTransportSDKServer: the client talks over HTTP to a server this
// project did not write, the official Go SDK's, which answers with event
// streams and sessions of its own: stateful (legacy era) and stateless
// (modern era).
func TestHTTPTransportSDKServer(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "sdk", Version: "1.0.0"}, nil)
	type args struct {
		Text string `json:"text,omitempty"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "echo"}, func(ctx context.Context, req *sdk.CallToolRequest, a args) (*sdk.CallToolResult, any, error) {
		if a.Text == "" {
			return nil, nil, errors.New("nothing to echo")
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Text}}}, nil, nil
	})
	getServer := func(*http.Request) *sdk.Server { return server }
	stateful := httptest.NewServer(sdk.NewStreamableHTTPHandler(getServer, nil))
	defer stateful.Close()
	stateless := httptest.NewServer(sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{Stateless: true}))
	defer stateless.Close()

	for _, tt := range []struct {
		name    string
		url     string
		era     Era
		version string
	}{
		// A stateful SDK handler lists only the legacy versions in its
		// server/discover result, so the probe falls back to the handshake.
		{"stateful/auto", stateful.URL, EraAuto, mcp.LatestLegacyVersion},
		{"stateful/legacy", stateful.URL, EraLegacy, mcp.LatestLegacyVersion},
		{"stateless/auto", stateless.URL, EraAuto, mcp.ModernVersion},
		{"stateless/modern", stateless.URL, EraModern, mcp.ModernVersion},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			c, err := Connect(ctx, HTTP(tt.url, nil), &Options{Era: tt.era})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := c.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			if v := c.ProtocolVersion(); v != tt.version {
				t.Errorf("connected at %q, want %q", v, tt.version)
			}
			res, err := c.CallTool(ctx, "echo", map[string]string{"text": "hi"})
			if err != nil || res.IsError || res.Content[0].Text != "hi" {
				t.Errorf("echo: %+v, %v", res, err)
			}
			res, err = c.CallTool(ctx, "echo", map[string]string{})
			if err != nil || !res.IsError || res.Content[0].Text != "nothing to echo" {
				t.Errorf("echo nothing: %+v, %v; want the SDK's tool error", res, err)
			}
			_, err = c.CallTool(ctx, "nope", nil)
			var perr *mcp.Error
			if !errors.As(err, &perr) || perr.Code != mcp.CodeInvalidParams {
				t.Errorf("unknown tool: %v, want -32602", err)
			}
		})
	}
}
