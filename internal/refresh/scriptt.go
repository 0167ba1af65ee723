package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptT runs testscript's scripts outside go test: it is the
// testscript.T of [runScript], which keeps their log and whether one
// failed. Each script runs in a goroutine of its own, since a failure ends
// it with runtime.Goexit as testing.T's FailNow does.
type scriptT struct {
	name string

	mu     *sync.Mutex
	log    *strings.Builder
	failed *bool
}

var _ testscript.T = scriptT{}

func (t scriptT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.log, "%s: %s\n", t.name, strings.TrimSuffix(fmt.Sprint(args...), "\n"))
}

func (t scriptT) FailNow() {
	t.mu.Lock()
	*t.failed = true
	t.mu.Unlock()
	runtime.Goexit()
}

func (t scriptT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

func (t scriptT) Skip(args ...any) {
	t.Log(args...)
	runtime.Goexit()
}

func (t scriptT) Parallel()     {}
func (t scriptT) Verbose() bool { return false }
func (t scriptT) Run(name string, f func(testscript.T)) {
	sub := t
	sub.name = t.name + "/" + name
	goWait(func() { f(sub) })
}

// goWait runs f in a goroutine of its own and waits for it to return or
// call runtime.Goexit.
func goWait(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// runScript runs one testscript with p, and returns its log and whether it
// passed.
func runScript(name string, p testscript.Params) (log string, ok bool) {
	t := scriptT{name: name, mu: new(sync.Mutex), log: new(strings.Builder), failed: new(bool)}
	goWait(func() { testscript.RunT(t, p) })
	return t.log.String(), !*t.failed
}
