package exchange

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/rogpeppe/go-internal/testscript"
)

// abortWait bounds each wait of the abort command: for the server's startup
// line, for a log line, for the server to close the aborted connection.
var abortWait = lockstep.ReplyTimeout

// cancelledLine is what the server's log line for a cancelled request
// holds, the line the abort command waits for.
const cancelledLine = `msg="request cancelled"`

// AbortCmd is the abort command, for testscript.Params.Cmds:
//
//	abort <requests> <started> <server> [args...]
//
// It shows what a server does when an HTTP client closes its side of a
// request in flight, which cancels the request in the 2026-07-28 era and
// not before. It runs the server command with -http 127.0.0.1:0 (before
// args), as a real process, and POSTs it each line of the requests file in
// turn, with the headers its era requires: every line but the last (a
// legacy-era handshake, say) is answered before the next is sent, and must
// be answered 200, or 202 for a notification. The last line, the request
// to abort, is written on a connection of its own. Then the command waits
// until the server logs a line that contains <started>, the handler's sign
// that it runs, and shuts down the sending side of the connection (a
// half-close: it goes on reading). In the 2026-07-28 era that is the
// cancellation. In a legacy session, where "Disconnection SHOULD NOT be
// interpreted as the client cancelling its request", the handler runs on,
// and the command then ends the session with DELETE, which must be
// answered 204 and cancels it. Either way the command waits until the
// server logs msg="request cancelled", and reads what the server writes
// back on the connection until the server closes it, which becomes the
// command's stdout: nothing, when the server cancelled the handler and
// wrote no response, which a script says with "! stdout .". Each wait is
// bounded by [lockstep.ReplyTimeout], and no step waits a fixed time. Last
// it stops the server with SIGTERM, which must exit with status 0 within
// [lockstep.ExitTimeout].
//
// The command's stderr is what the server logged after its startup line,
// normalized as the exchange command's is ([NormalizeLog]), for a log pin:
//
//	abort req/aborted.jsonl 'waiting for the warehouse' 04-handler-failures
//	! stdout .
//	pin stderr log/aborted.log
//
// Such a case has no want/ section: its request is owed no reply, so the
// tests that replay every pinned exchange over stdio or HTTP leave it out.
func AbortCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("abort does not support negation: a failed abort is a failed test")
	}
	if len(args) < 3 {
		ts.Fatalf("usage: abort <requests> <started> <server> [args...]")
	}
	var lines []string
	for line := range strings.Lines(ts.ReadFile(args[0])) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		ts.Fatalf("abort: %s has no request line: give it the request to abort, last", args[0])
	}
	var stdout bytes.Buffer
	log, err := abort(ts.MkAbs("."), args[2:], lines, args[1], &stdout)
	if work := ts.Getenv("WORK"); work != "" {
		log = strings.ReplaceAll(log, work, "$WORK")
	}
	ts.Stdout().Write(stdout.Bytes())
	io.WriteString(ts.Stderr(), NormalizeLog(log))
	if err != nil {
		ts.Logf("[the server's log, as written]\n%s", log)
		ts.Fatalf("abort %s: %v", args[0], err)
	}
}

// abort runs the server command in dir with -http, sends it the request
// lines and aborts the last, as AbortCmd describes; it writes what the
// server sent back on the aborted request's connection to stdout and
// returns what the server logged after its startup line.
func abort(dir string, command, lines []string, started string, stdout io.Writer) (log string, err error) {
	cmd := exec.Command(command[0], append([]string{"-http", "127.0.0.1:0"}, command[1:]...)...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting the server: %v", err)
	}
	s := &httpServer{cmd: cmd, lines: lockstep.Lines(stderr)}
	defer func() {
		if err != nil {
			cmd.Process.Kill()
			s.drain()
			cmd.Wait()
		}
		log = s.log.String()
	}()
	url, err := s.startupURL()
	if err != nil {
		return "", err
	}
	var h headers
	for _, line := range lines[:len(lines)-1] {
		if err := h.post(url, line); err != nil {
			return "", err
		}
	}
	last := lines[len(lines)-1]
	req, _, err := h.request(url, last)
	if err != nil {
		return "", err
	}
	conn, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if err := req.Write(conn); err != nil {
		return "", fmt.Errorf("writing %s: %v", last, err)
	}
	if err := s.await(started); err != nil {
		return "", fmt.Errorf("%v: the handler of %s did not start, or does not log %q when it does", err, last, started)
	}
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		return "", err
	}
	how := "closed"
	if h.session != "" {
		how = "closed and ended the session of"
		if err := h.endSession(url); err != nil {
			return "", err
		}
	}
	if err := s.await(cancelledLine); err != nil {
		return "", fmt.Errorf("%v after the client %s %s: the server did not cancel it", err, how, last)
	}
	conn.SetReadDeadline(time.Now().Add(abortWait))
	reply, err := io.ReadAll(conn)
	stdout.Write(reply)
	if err != nil {
		return "", fmt.Errorf("reading what the server wrote back after cancelling %s: %v", last, err)
	}
	return "", s.stop()
}

// An httpServer is the server process of the abort command, and its log.
type httpServer struct {
	cmd   *exec.Cmd
	lines <-chan []byte   // the lines of its stderr, as they come
	log   strings.Builder // the lines read so far, after the startup line
}

// startupURL reads the server's startup line, whose last word is its
// endpoint's URL.
func (s *httpServer) startupURL() (string, error) {
	timer := time.NewTimer(abortWait)
	defer timer.Stop()
	select {
	case line, ok := <-s.lines:
		fields := strings.Fields(string(line))
		if !ok || len(fields) == 0 || !strings.HasPrefix(fields[len(fields)-1], "http://127.0.0.1:") {
			return "", fmt.Errorf("the server's startup line is %q; want one ending in its endpoint's loopback URL (is it a server run by mcp.Main?)", line)
		}
		return fields[len(fields)-1], nil
	case <-timer.C:
		return "", fmt.Errorf("no startup line from the server within %v", abortWait)
	}
}

// await reads the server's log until a line contains text, at most
// abortWait.
func (s *httpServer) await(text string) error {
	timer := time.NewTimer(abortWait)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return fmt.Errorf("the server closed its log without a line holding %q", text)
			}
			s.log.Write(line)
			if bytes.Contains(line, []byte(text)) {
				return nil
			}
		case <-timer.C:
			return fmt.Errorf("no log line holding %q within %v", text, abortWait)
		}
	}
}

// stop sends the server SIGTERM, reads the rest of its log and waits for it
// to exit, at most lockstep.ExitTimeout, with status 0.
func (s *httpServer) stop() error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(lockstep.ExitTimeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				if err := s.cmd.Wait(); err != nil {
					return &lockstep.ExitError{Err: fmt.Errorf("the server failed after SIGTERM: %v", err)}
				}
				return nil
			}
			s.log.Write(line)
		case <-timer.C:
			return &lockstep.ExitError{Err: fmt.Errorf("the server did not exit within %v of SIGTERM", lockstep.ExitTimeout)}
		}
	}
}

// drain reads the rest of the server's log, once it has been killed.
func (s *httpServer) drain() {
	for line := range s.lines {
		s.log.Write(line)
	}
}

// headers are what the requests of one exchange carry in their headers:
// the protocol version and, in a legacy session, its id, learnt from the
// lines sent before.
type headers struct {
	version, session string
}

// requestFields is what headers reads of a request line.
type requestFields struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"params"`
}

// request returns the POST of line to url, with the headers its era
// requires: a modern-era request's version, method and name, or the
// legacy session's id and version; and what it read of the line.
func (h *headers) request(url, line string) (*http.Request, requestFields, error) {
	var m requestFields
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return nil, m, fmt.Errorf("request line %s: %v", line, err)
	}
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(line))
	if err != nil {
		return nil, m, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if v := m.Params.Meta.ProtocolVersion; v != "" {
		req.Header.Set("Mcp-Protocol-Version", v)
		req.Header.Set("Mcp-Method", m.Method)
		if name := m.Params.Name + m.Params.URI; name != "" {
			req.Header.Set("Mcp-Name", name)
		}
		return req, m, nil
	}
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.version != "" {
		req.Header.Set("Mcp-Protocol-Version", h.version)
	}
	return req, m, nil
}

// client sends the lines before the aborted one.
var client = &http.Client{Timeout: lockstep.ReplyTimeout}

// post sends line and checks that it is answered 200, or 202 for a
// notification; an initialize's answer gives the session's id and
// version to the lines after it.
func (h *headers) post(url, line string) error {
	req, m, err := h.request(url, line)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	want := http.StatusOK
	if m.ID == nil {
		want = http.StatusAccepted
	}
	if resp.StatusCode != want {
		return fmt.Errorf("request line %s: status %d, want %d; body %s", line, resp.StatusCode, want, body)
	}
	if m.Method == "initialize" {
		var init struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &init); err != nil || init.Result.ProtocolVersion == "" {
			return errors.New("the initialize request got no result with a protocol version: " + string(body))
		}
		h.session, h.version = resp.Header.Get("Mcp-Session-Id"), init.Result.ProtocolVersion
	}
	return nil
}

// endSession ends the legacy session with DELETE, which must be answered
// 204.
func (h *headers) endSession(url string) error {
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", h.session)
	req.Header.Set("Mcp-Protocol-Version", h.version)
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("ending the session: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("ending the session: status %d, want 204; body %s", resp.StatusCode, body)
	}
	return nil
}
