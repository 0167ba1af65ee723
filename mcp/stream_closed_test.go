package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
)

// eofReader is a reader that closes eof when it reports the end of its
// input: the sign that the server has read it.
type eofReader struct {
	r   io.Reader
	eof chan struct{}
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		select {
		case <-e.eof:
		default:
			close(e.eof)
		}
	}
	return n, err
}

// TestServeClosedInput closes a stream's input while a handler runs, in
// each era: over stdio no era takes the end of the input for a
// cancellation (the 2026-07-28 client cancels with notifications/cancelled
// there), so the handler runs on and its reply is written. When the client
// has closed its reading end too, the write fails, and the log says so,
// once.
func TestServeClosedInput(t *testing.T) {
	legacy := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}` + "\n"
	for _, tt := range []struct {
		name         string
		first        string // lines before the call
		modern, half bool
	}{
		{"legacy/half-close", legacy, false, true},
		{"legacy/close", legacy, false, false},
		{"modern/half-close", "", true, true},
		{"modern/close", "", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			log, opts := newLogWatch()
			s := NewServer("closed", "1.0.0", opts)
			started := make(chan context.Context, 1)
			release := make(chan struct{})
			addHoldTool(s, started, release)
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			in := &eofReader{r: inR, eof: make(chan struct{})}
			served := make(chan error, 1)
			go func() { served <- s.Serve(context.Background(), in, outW) }()
			out := bufio.NewReader(outR)
			go io.WriteString(inW, tt.first+holdCall(tt.modern, false)+"\n")
			if tt.first != "" {
				if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"protocolVersion"`) {
					t.Fatalf("initialize: %q, %v", line, err)
				}
			}
			ctx := <-started
			inW.Close()
			if !tt.half {
				outR.Close()
			}
			<-in.eof
			if ctx.Err() != nil {
				t.Fatalf("the end of the input cancelled the handler: %v", context.Cause(ctx))
			}
			close(release)
			if tt.half {
				line, err := out.ReadString('\n')
				if err != nil || !strings.Contains(line, `"text":"released"`) {
					t.Errorf("after the half-close: %q, %v; want the reply", line, err)
				}
			} else {
				log.await(t, `msg="the client closed its side before the reply"`, "error=")
			}
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
			if n := strings.Count(log.String(), "closed its side"); !tt.half && n != 1 {
				t.Errorf("the close is logged %d times, want once:\n%s", n, log.String())
			}
		})
	}
}
