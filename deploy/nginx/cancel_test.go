package nginx

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/rogpeppe/go-internal/txtar"
)

// The log lines TestClientCloseThroughNginx waits for: chapter 04's
// wait_for_stock says it waits, the core that the request was cancelled.
const (
	handlerWaits     = `msg="waiting for the warehouse"`
	requestCancelled = `msg="request cancelled"`
)

// TestClientCloseThroughNginx closes a request through nginx while its
// handler waits, in each era, the whole connection or only its sending
// side (a half-close), and pins what follows. The client sends the
// requests of chapter 04's pinned case "aborted", whose last is a
// wait_for_stock for a title the warehouse never answers about; waits
// until a backend logs that the handler waits; and closes. nginx meets the
// end of the client's input either way: with proxy_ignore_client_abort
// off (mcp.conf), it closes its connection to the backend and the
// client's, with nothing written back, so a half-closing client gets no
// answer through nginx, in either era. On the backend, in the 2026-07-28
// era, that closed connection cancels the handler; in a legacy session it
// does not, and the handler runs on until the client ends the session
// with DELETE. The backend then logs what the pin log/aborted.log holds:
// the wait, and "request cancelled" for that request. No step sleeps:
// each waits for a log line or the end of a connection, at most waitFor.
func TestClientCloseThroughNginx(t *testing.T) {
	needNginx(t)
	backends := startBackends(t, "04-handler-failures")
	url := startNginx(t, recipe(t), backends)
	for _, era := range []string{"modern", "legacy"} {
		for _, half := range []bool{false, true} {
			name := era + "/close"
			if half {
				name = era + "/half-close"
			}
			t.Run(name, func(t *testing.T) { closeThroughNginx(t, url, backends, era, half) })
		}
	}
}

// closeThroughNginx is one case of TestClientCloseThroughNginx.
func closeThroughNginx(t *testing.T, url string, backends []*backend, era string, half bool) {
	requests, wantLog := pinnedAbort(t, era)
	last := requests[len(requests)-1]
	headers := eraHeaders(t, last)
	watched := backends // a modern-era call may reach any
	session := ""
	for _, line := range requests[:len(requests)-1] {
		r, err := post(url, line, headers)
		if err != nil || r.status/100 != 2 {
			t.Fatalf("%s: %+v, %v; want it answered", line, r, err)
		}
		if r.session != "" { // a legacy session, held by one backend
			session = r.session
			headers = map[string]string{"Mcp-Session-Id": r.session, "Mcp-Protocol-Version": "2025-11-25"}
			watched = sessionBackend(t, backends, r.session)
		}
	}
	conn := sendRaw(t, url, last, headers)
	b, waits := awaitAny(t, watched, handlerWaits)
	closed := time.Now()
	var err error
	if half {
		err = conn.(*net.TCPConn).CloseWrite()
	} else {
		err = conn.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if half {
		// nginx answers the end of the input by closing the connection,
		// with nothing written back.
		conn.SetReadDeadline(time.Now().Add(waitFor))
		got, err := io.ReadAll(conn)
		if err != nil || len(got) > 0 {
			t.Fatalf("after the half-close nginx sent %q (%v); want the connection closed, with nothing", got, err)
		}
	}
	if session != "" {
		// In a legacy session the closed connection cancelled nothing: the
		// client ends its session, which does.
		req, err := http.NewRequest(http.MethodDelete, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE of the session: %v, %v; want 204", resp, err)
		}
		resp.Body.Close()
	}
	wait, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	cancelled, err := b.proc.AwaitLog(wait, requestCancelled)
	if err != nil {
		t.Fatalf("the backend did not cancel the handler: %v", err)
	}
	if got := exchange.NormalizeLog(waits + "\n" + cancelled + "\n"); got != wantLog {
		t.Errorf("backend %s logged\n%s\nwant, as the pin holds,\n%s\n%s", b.addr, got, wantLog, exchange.PinHelp(abortArchive(era), "log/aborted.log"))
	}
	t.Logf("backend %s logged the cancellation %v after the client closed its request", b.addr, time.Since(closed).Round(time.Microsecond))
}

// sendRaw writes the POST of line to url, with headers, on a connection of
// its own, which it returns unread.
func sendRaw(t *testing.T, url, line string, headers map[string]string) net.Conn {
	req, err := mcptest.NewPost(context.Background(), url, line, headers)
	if err != nil {
		t.Fatal(err)
	}
	return mcptest.Dial(t, req)
}

// abortArchive is chapter 04's script of era, which pins the case
// "aborted".
func abortArchive(era string) string {
	return filepath.Join("../../testdata/scripts/04-handler-failures", era+".txtar")
}

// pinnedAbort returns the request lines and the log that chapter 04's
// script of era pins for its case "aborted".
func pinnedAbort(t *testing.T, era string) (requests []string, log string) {
	archive := abortArchive(era)
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		switch f.Name {
		case "req/aborted.jsonl":
			for line := range strings.Lines(string(f.Data)) {
				if line = strings.TrimSpace(line); line != "" {
					requests = append(requests, line)
				}
			}
		case "log/aborted.log":
			log = string(f.Data)
		}
	}
	if len(requests) == 0 || log == "" {
		t.Fatalf("%s pins no case aborted (req/aborted.jsonl and log/aborted.log)", exchange.RootPath(archive))
	}
	return requests, log
}

// eraHeaders returns the headers a modern-era request line requires, or
// none for a legacy-era one, which gets its session's.
func eraHeaders(t *testing.T, line string) map[string]string {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
			Meta struct {
				ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("request %s: %v", line, err)
	}
	if m.Params.Meta.ProtocolVersion == "" {
		return nil
	}
	return map[string]string{"Mcp-Protocol-Version": m.Params.Meta.ProtocolVersion, "Mcp-Method": m.Method, "Mcp-Name": m.Params.Name}
}

// sessionBackend returns the backend whose session prefix starts session.
func sessionBackend(t *testing.T, backends []*backend, session string) []*backend {
	for _, b := range backends {
		if strings.HasPrefix(session, b.prefix) {
			return []*backend{b}
		}
	}
	t.Fatalf("session %s starts with no backend's prefix", session)
	return nil
}

// awaitAny waits, at most waitFor, until one of the backends logs a line
// holding text, and returns that backend and the line.
func awaitAny(t *testing.T, backends []*backend, text string) (*backend, string) {
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	type found struct {
		b    *backend
		line string
	}
	first := make(chan found, len(backends))
	failed := make(chan error, len(backends))
	for _, b := range backends {
		go func() {
			line, err := b.proc.AwaitLog(ctx, text)
			if err != nil {
				failed <- err
				return
			}
			first <- found{b, line}
		}()
	}
	var errs []error
	for range backends {
		select {
		case f := <-first:
			return f.b, f.line
		case err := <-failed:
			errs = append(errs, err)
		}
	}
	t.Fatalf("no backend logged a line holding %s: %v", text, errors.Join(errs...))
	return nil, ""
}
