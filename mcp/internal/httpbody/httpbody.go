// Package httpbody reads HTTP request bodies into recycled buffers.
package httpbody

import (
	"io"
	"net/http"
	"slices"
	"sync"
)

// Buffer is a recycled buffer a request body is read into.
type Buffer struct{ b []byte }

// pool recycles Buffers.
var pool = sync.Pool{New: func() any { return new(Buffer) }}

// maxPooled bounds the buffers pool keeps.
const maxPooled = 64 << 10

// Get returns a Buffer from the pool.
func Get() *Buffer { return pool.Get().(*Buffer) }

// Release returns b to the pool, unless it grew too large to keep. The body
// Read returned must not be used after it.
func (b *Buffer) Release() {
	if cap(b.b) <= maxPooled {
		b.b = b.b[:0]
		pool.Put(b)
	}
}

// Read reads r's body, at most limit bytes (beyond which the error is an
// *http.MaxBytesError), into b: in one read of the length the request
// declares, when it declares one, else growing b as io.ReadAll does.
func (b *Buffer) Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	if n := r.ContentLength; n > 0 && n <= limit {
		b.b = slices.Grow(b.b[:0], int(n))[:n]
		_, err := io.ReadFull(body, b.b) // net/http ends the body there
		return b.b, err
	}
	b.b = b.b[:0]
	for {
		b.b = slices.Grow(b.b, 512)
		n, err := body.Read(b.b[len(b.b):cap(b.b)])
		b.b = b.b[:len(b.b)+n]
		if err == io.EOF {
			return b.b, nil
		}
		if err != nil {
			return b.b, err
		}
	}
}
