package nginx

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/rogpeppe/go-internal/txtar"
)

// The log lines TestClientAbortCancelsTheHandler waits for: chapter 04's
// wait_for_stock says it waits, the core that the request was cancelled.
const (
	handlerWaits     = `msg="waiting for the warehouse"`
	requestCancelled = `msg="request cancelled"`
)

// TestClientAbortCancelsTheHandler: a client that closes its request
// through nginx cancels the handler on the backend, in both eras. The
// client sends the requests of chapter 04's pinned case "aborted", whose
// last is a wait_for_stock for a title the warehouse never answers about;
// waits until a backend logs that the handler waits; and closes the
// request. nginx closes its connection to the backend (mcp.conf keeps
// proxy_ignore_client_abort off), the backend cancels the handler's
// context, and the handler returns, which it does only then: the backend
// logs what the pin holds, the wait and then "request cancelled" for that
// request, and sends no response. No step sleeps: each waits for a log
// line or the client's own return, at most waitFor.
func TestClientAbortCancelsTheHandler(t *testing.T) {
	needNginx(t)
	backends := startBackends(t, "04-handler-failures")
	url := startNginx(t, recipe(t), backends)
	for _, era := range []string{"modern", "legacy"} {
		t.Run(era, func(t *testing.T) {
			requests, wantLog := pinnedAbort(t, era)
			last := requests[len(requests)-1]
			headers := eraHeaders(t, last)
			watched := backends // a modern-era call may reach any
			for _, line := range requests[:len(requests)-1] {
				r, err := post(url, line, headers)
				if err != nil || r.status/100 != 2 {
					t.Fatalf("%s: %+v, %v; want it answered", line, r, err)
				}
				if r.session != "" { // a legacy session, held by one backend
					headers = map[string]string{"Mcp-Session-Id": r.session, "Mcp-Protocol-Version": "2025-11-25"}
					watched = sessionBackend(t, backends, r.session)
				}
			}
			ctx, closeRequest := context.WithCancel(t.Context())
			defer closeRequest()
			answered := make(chan error, 1)
			go func() { answered <- send(ctx, url, last, headers) }()

			b, waits := awaitAny(t, watched, handlerWaits)
			closed := time.Now()
			closeRequest()
			if err := <-answered; !errors.Is(err, context.Canceled) {
				t.Fatalf("the client's request: %v; want it closed by the client, unanswered", err)
			}
			wait, cancel := context.WithTimeout(t.Context(), waitFor)
			defer cancel()
			cancelled, err := b.proc.AwaitLog(wait, requestCancelled)
			if err != nil {
				t.Fatalf("the client closed its request through nginx, and the backend did not cancel it: %v", err)
			}
			if got := exchange.NormalizeLog(waits + "\n" + cancelled + "\n"); got != wantLog {
				t.Errorf("backend %s logged\n%s\nwant, as the pin holds,\n%s\n%s", b.addr, got, wantLog, exchange.PinHelp(abortArchive(era), "log/aborted.log"))
			}
			t.Logf("backend %s logged the cancellation %v after the client closed its request", b.addr, time.Since(closed).Round(time.Microsecond))
		})
	}
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

// send POSTs line to url with headers, and returns an error unless the
// request is answered: context.Canceled when ctx ends first.
func send(ctx context.Context, url, line string, headers map[string]string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(line))
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return errors.New("answered " + resp.Status + ": " + string(body))
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
