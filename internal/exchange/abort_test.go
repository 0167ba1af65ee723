package exchange

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// fakeHTTPServer serves HTTP on addr as mcp.Main does with -http, with a
// startup line naming its URL, until SIGTERM, and returns its exit
// status. Each POST, read whole as the core reads it, logs "started" and
// then, as mode says:
//
//   - "cancels": waits for the client to close the request, logs
//     msg="request cancelled" and aborts the response, as the core does;
//   - "replies": the same, but writes a response anyway;
//   - "ignores": waits until the server stops, cancelling nothing.
//
// In mode "silent" a POST logs nothing and waits for the client to close
// it.
func fakeHTTPServer(addr, mode string) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "fake serves at http://%s/mcp\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // net/http sees the client close only after the body
		if mode != "silent" {
			log.Info("started", "mode", mode)
		}
		if mode == "ignores" {
			<-ctx.Done()
			return
		}
		<-r.Context().Done()
		log.Info("request cancelled", "id", 1)
		if mode != "replies" {
			panic(http.ErrAbortHandler)
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})}
	go srv.Serve(ln)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return 0
}

// abortFake runs the abort command's steps against the fake HTTP server
// in mode, with each wait bounded by wait.
func abortFake(t *testing.T, mode string, wait time.Duration) (stdout, log string, err error) {
	defer func(old time.Duration) { abortWait = old }(abortWait)
	abortWait = wait
	var out strings.Builder
	line := mcptest.Request("1", "tools/call", `"name":"wait"`)
	log, err = abort(t.TempDir(), []string{os.Args[0], fakeArg, mode}, []string{line}, `msg=started`, &out)
	return out.String(), NormalizeLog(log), err
}

// TestAbortCancels: the command waits for the handler's start, closes the
// request, waits for the cancellation's log line, and prints what the
// server wrote back: nothing.
func TestAbortCancels(t *testing.T) {
	stdout, log, err := abortFake(t, "cancels", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if stdout != "" {
		t.Errorf("stdout = %q, want nothing: the server wrote no response", stdout)
	}
	want := "time=<time> level=INFO msg=started mode=cancels\ntime=<time> level=INFO msg=\"request cancelled\" id=1\n"
	if log != want {
		t.Errorf("log =\n%s\nwant\n%s", log, want)
	}
}

// TestAbortShowsAReply: what a server writes back after the client closed
// its side of the request is the command's stdout, for "! stdout ." to
// catch.
func TestAbortShowsAReply(t *testing.T) {
	stdout, _, err := abortFake(t, "replies", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(stdout, `"result":{}}`) {
		t.Errorf("stdout = %q, want the response the server wrote", stdout)
	}
}

// TestAbortFails: a handler that never says it started, and a server that
// does not cancel the handler, fail the command with what went wrong.
func TestAbortFails(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"silent", `no log line holding "msg=started" within 200ms: the handler of`},
		{"ignores", `no log line holding "msg=\"request cancelled\"" within 200ms after the client closed`},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			_, _, err := abortFake(t, tt.mode, 200*time.Millisecond)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}
