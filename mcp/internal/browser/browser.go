//go:build js

// Package browser serves an MCP server to the page that runs it as
// WebAssembly.
package browser

import (
	"context"
	"io"
	"strings"
	"syscall/js"

	"github.com/mcpbookshop/guide/internal/lockstep"
)

// Serve runs a server in a browser (GOOS=js GOARCH=wasm), which has no
// stdin to serve: it hands the server to the page instead and then waits
// for the page's calls. Before it starts the module, the page sets
// globalThis.mcpMain to a function; Serve calls it with an object whose
// name is the server's and whose run(lines) serves one fresh connection
// with serve, as a fresh process would serve stdio: it sends the lines in
// lock step, as package lockstep does for the testscripts, closes the
// input, and returns a promise of the lines the server wrote after each
// request line (an array per line, in order, blank lines skipped), or
// rejects it with what went wrong.
func Serve(name string, serve func(ctx context.Context, r io.Reader, w io.Writer) error) {
	run := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var lines []string
		for i := range args[0].Length() {
			if line := args[0].Index(i).String(); strings.TrimSpace(line) != "" {
				lines = append(lines, line)
			}
		}
		return promise(func() (any, error) { return serveLines(serve, lines) })
	})
	api := js.Global().Get("Object").New()
	api.Set("name", name)
	api.Set("run", run)
	js.Global().Call("mcpMain", api)
	select {}
}

// serveLines serves one connection whose client sends lines in lock step,
// and returns what the server wrote after each line.
func serveLines(serve func(ctx context.Context, r io.Reader, w io.Writer) error, lines []string) (any, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan struct{})
	go func() {
		serve(context.Background(), inR, outW)
		outW.Close()
		close(served)
	}()
	w := &countingWriter{w: inW}
	after := make([]any, len(lines))
	for i := range after {
		after[i] = []any{}
	}
	each := func(line []byte) {
		i := max(w.n-1, 0)
		after[i] = append(after[i].([]any), string(line[:len(line)-1]))
	}
	received := lockstep.Lines(outR)
	err := lockstep.Send(context.Background(), w, received, lines, lockstep.ReplyTimeout, each)
	inW.Close()
	for line := range received {
		if err == nil {
			err = lockstep.Pass(line, each)
		}
	}
	<-served
	return after, err
}

// countingWriter counts the writes to w: lockstep.Send writes each line
// once.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n++
	return c.w.Write(p)
}

// promise returns a JavaScript promise of what f returns, which it runs in
// a goroutine of its own: a function the page calls must not block.
func promise(f func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		executor.Release()
		go func() {
			v, err := f()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}
