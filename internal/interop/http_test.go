package interop

import (
	"net/http"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { transports = append(transports, transport{"http", startHTTP}) }

// exitTimeout bounds a chapter's graceful shutdown after SIGTERM.
const exitTimeout = 10 * time.Second

// startHTTP runs chapter over HTTP and returns the SDK's Streamable HTTP
// transport to it. Before the chapter is stopped, the transport's idle
// connections are closed: a request the client cancels can leave one that
// never carried a request, and the chapter's graceful shutdown would wait
// for it (net/http gives such a connection 5 seconds).
func startHTTP(t *testing.T, chapter string) (mcp.Transport, func(t *testing.T)) {
	url, stop := runHTTP(t, chapter)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, func(t *testing.T) {
		client.CloseIdleConnections()
		stop(t)
	}
}

// runHTTP runs chapter with -http on a free loopback port and returns the
// endpoint's URL, read from its startup line, and a function that sends
// the chapter SIGTERM and checks that it exits with status 0.
func runHTTP(t *testing.T, chapter string) (string, func(t *testing.T)) {
	p, err := chapterproc.StartHTTP(binary(t, chapter), ":0")
	if err != nil {
		t.Fatal(err)
	}
	return p.URL, func(t *testing.T) {
		if err := p.Stop(exitTimeout); err != nil {
			t.Error(err)
		}
	}
}
