// Package core is a demo core that a walk page is held to.
package core

// Request is what the core serves.
type Request struct{ Name string }

// pool recycles buffers.
var pool = struct{ New func() any }{New: func() any { return new([]byte) }}

// Serve reads requests until the input ends.
func Serve() { read() }

// read reads one line.
func read() {}

// handle serves one request.
func handle(r Request) string { return encode(helper(r.Name)) }

// encode writes the reply.
func encode(s string) string { return s }

// helper trims a name.
func helper(s string) string { return s }

// tick runs when a timer fires, in some sessions only.
func tick() {}

// unused is run by no call.
func unused() {}
