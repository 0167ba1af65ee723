package interop

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
	cmd := exec.Command(filepath.Join(bin, chapter), "-http", ":0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logs := bufio.NewReader(stderr)
	line, err := logs.ReadString('\n')
	fields := strings.Fields(line)
	if err != nil || len(fields) == 0 || !strings.HasPrefix(fields[len(fields)-1], "http://127.0.0.1:") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%s -http :0: startup line %q, %v; want the endpoint's loopback URL", chapter, line, err)
	}
	go io.Copy(io.Discard, logs) // the chapter's log lines
	return fields[len(fields)-1], func(t *testing.T) {
		cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("%s did not exit cleanly after SIGTERM: %v", chapter, err)
			}
		case <-time.After(exitTimeout):
			cmd.Process.Kill()
			t.Errorf("%s still running %v after SIGTERM", chapter, exitTimeout)
		}
	}
}
