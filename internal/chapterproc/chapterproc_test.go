package chapterproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeHTTPArg, after -http ADDR, makes the test binary a fake chapter.
const fakeHTTPArg = "fake-http"

// fakeHTTP plays a chapter started with -http: it prints a startup line
// naming a loopback URL, logs three lines and exits with status 0 on
// SIGTERM.
func fakeHTTP() int {
	sigterm := make(chan os.Signal, 1)
	signal.Notify(sigterm, syscall.SIGTERM)
	fmt.Fprintln(os.Stderr, "Fake serves MCP over Streamable HTTP at http://127.0.0.1:1/mcp")
	fmt.Fprintln(os.Stderr, "one\ntwo x\nthree x")
	<-sigterm
	return 0
}

// TestAwaitLog: AwaitLog returns the lines logged after the startup line
// that hold its text, each once and in order, passing over the others;
// it gives up when its context ends, or when the log does.
func TestAwaitLog(t *testing.T) {
	p, err := StartHTTP(os.Args[0], "127.0.0.1:1", fakeHTTPArg)
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != "http://127.0.0.1:1/mcp" {
		t.Errorf("URL = %q, want the startup line's", p.URL)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for _, want := range []string{"two x", "three x"} {
		if line, err := p.AwaitLog(ctx, "x"); line != want || err != nil {
			t.Errorf("AwaitLog(x) = %q, %v; want %q", line, err, want)
		}
	}
	short, cancelShort := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancelShort()
	if line, err := p.AwaitLog(short, "one"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("AwaitLog(one) after it was passed over = %q, %v; want the context's deadline", line, err)
	}
	if err := p.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := p.AwaitLog(ctx, "four"); err == nil || !strings.Contains(err.Error(), "log ended") {
		t.Errorf("AwaitLog once the process exited: %v, want an error saying its log ended", err)
	}
}
