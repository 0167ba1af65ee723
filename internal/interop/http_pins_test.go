package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptrace"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/mcpbookshop/guide/internal/mcptest"
	guide "github.com/mcpbookshop/guide/mcp"
)

// pinnedScripts are the chapters' scripts whose pinned stdio replies the
// chapters must give, byte for byte, over Streamable HTTP too. (The
// bad-input scripts pin the stdio framing; the HTTP framing's own errors are
// tested in the mcp package.)
var pinnedScripts = []string{"legacy.txtar", "modern.txtar"}

// TestPinsOverHTTP replays each exchange the chapters' scripts pin, one
// request per POST, and compares the bodies with the pinned stdio replies.
// Each exchange is a connection of its own: over HTTP, a legacy exchange
// opens a session with its initialize and ends it with DELETE.
func TestPinsOverHTTP(t *testing.T) {
	chapters, err := chapterproc.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, chapter := range chapters {
		t.Run(chapter, func(t *testing.T) {
			url, stop := runHTTP(t, chapter)
			defer func() {
				http.DefaultClient.CloseIdleConnections() // as startHTTP does
				stop(t)
			}()
			for _, script := range pinnedScripts {
				archive := filepath.Join(scripts, chapter, script)
				exchanges, err := exchange.Exchanges(archive)
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range exchanges {
					t.Run(strings.TrimSuffix(script, ".txtar")+"/"+x.Name, func(t *testing.T) {
						if got := replay(t, url, x.Requests); !bytes.Equal(got, x.Replies) {
							t.Errorf("over HTTP:\n%s\npinned over stdio:\n%s\n%s", got, x.Replies, exchange.PinHelp(archive, "want/"+x.Name+".jsonl"))
						}
					})
				}
			}
		})
	}
}

// requestLine is what replay reads of a request line.
type requestLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// replay sends each line of reqs as a POST with the headers its era
// requires and returns the response bodies, one line each. It checks the
// HTTP status of each: 202 with no body for a notification; for a request,
// 200, or in the modern era the status the specification gives its error.
//
// A request that a later line cancels (see lockstep.OwedReplies) is sent
// without waiting for its response; when the line cancelling it has been
// sent, replay closes the request too, as Streamable HTTP cancels in both
// eras, and checks that no response came.
func replay(t *testing.T, url string, reqs []byte) []byte {
	var out bytes.Buffer
	var session, version string
	lines := slices.Collect(strings.Lines(string(reqs)))
	owed := lockstep.OwedReplies(lines)
	inFlight := make(map[string]*cancellable) // by id
	for i, line := range lines {
		var m requestLine
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("request %s: %v", line, err)
		}
		req, err := mcptest.NewPost(context.Background(), url, line, nil)
		if err != nil {
			t.Fatal(err)
		}
		modern := m.Params.Meta.ProtocolVersion != ""
		switch {
		case m.ID == nil && session == "" && version != "":
			// A notification in a modern exchange: no session to name, so
			// it goes at the exchange's version (a cancellation is
			// ignored: over HTTP, closing the request cancels).
			req.Header.Set("Mcp-Protocol-Version", version)
		case modern:
			version = m.Params.Meta.ProtocolVersion
			req.Header.Set("Mcp-Protocol-Version", m.Params.Meta.ProtocolVersion)
			req.Header.Set("Mcp-Method", m.Method)
			if name := m.Params.Name + m.Params.URI; name != "" {
				req.Header.Set("Mcp-Name", name)
			}
		case session != "":
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		if m.ID != nil && !owed[i] {
			inFlight[string(m.ID)] = startCancellable(req)
			continue
		}
		resp, err := mcptest.Do(nil, req)
		if err != nil {
			t.Fatal(err)
		}
		body := []byte(resp.Body)
		if m.ID == nil {
			if resp.Status != http.StatusAccepted || len(body) > 0 {
				t.Errorf("notification %s: status %d, body %q; want 202 and no body", line, resp.Status, body)
			}
			if c := inFlight[string(m.Params.RequestID)]; c != nil && m.Method == "notifications/cancelled" {
				if body := c.close(); body != nil {
					t.Errorf("the cancelled request got a response: %s", body)
				}
			}
			continue
		}
		if want := wantStatus(modern, body); resp.Status != want {
			t.Errorf("request %s: status %d, want %d", line, resp.Status, want)
		}
		if m.Method == "initialize" {
			session = resp.Header.Get("Mcp-Session-Id")
			var r struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			json.Unmarshal(body, &r)
			version = r.Result.ProtocolVersion
		}
		out.Write(body)
	}
	if session != "" {
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set("Mcp-Session-Id", session)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("DELETE: status %d, want 204", resp.StatusCode)
		}
	}
	return out.Bytes()
}

// cancellable is a request in flight that replay cancels.
type cancellable struct {
	cancel context.CancelFunc
	body   chan []byte // the response body, or nil for none
}

// startCancellable sends req and returns once it is written: the server
// then reads it whole, so it serves the request however soon it is closed.
func startCancellable(req *http.Request) *cancellable {
	ctx, cancel := context.WithCancel(req.Context())
	wrote := make(chan struct{})
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { close(wrote) }})
	c := &cancellable{cancel: cancel, body: make(chan []byte, 1)}
	go func() {
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			c.body <- nil
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		c.body <- body
	}()
	select {
	case <-wrote:
	case body := <-c.body: // failed before it was written, or answered at once
		c.body <- body
	}
	return c
}

// close closes the request and returns the response it got, if any.
func (c *cancellable) close() []byte {
	c.cancel()
	return <-c.body
}

// wantStatus is the HTTP status of a response: 200, but in the modern era
// 404 for an unknown method and 400 for the errors that say the request is
// invalid, as the 2026-07-28 transport specifies.
func wantStatus(modern bool, body []byte) int {
	var r struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &r) != nil || r.Error == nil || !modern {
		return http.StatusOK
	}
	switch r.Error.Code {
	case guide.CodeMethodNotFound:
		return http.StatusNotFound
	case guide.CodeParseError, guide.CodeInvalidRequest, guide.CodeInvalidParams,
		guide.CodeHeaderMismatch, guide.CodeMissingRequiredClientCapability, guide.CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
