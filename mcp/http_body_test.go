package mcp

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBodyBufferRead(t *testing.T) {
	long := strings.Repeat("x", 3000)
	for _, c := range []struct {
		body    string
		chunked bool // no Content-Length
		limit   int64
		tooBig  bool
	}{
		{`{"a":1}`, false, 100, false},
		{`{"a":1}`, true, 100, false},
		{long, false, 3000, false},
		{long, true, 3000, false},
		{long, false, 2999, true},
		{long, true, 2999, true},
		{"", true, 10, false},
	} {
		r := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		if c.chunked {
			r.ContentLength = -1
		}
		b := bodyPool.Get().(*bodyBuffer)
		got, err := b.read(httptest.NewRecorder(), r, c.limit)
		var tooBig *http.MaxBytesError
		switch {
		case c.tooBig && !errors.As(err, &tooBig):
			t.Errorf("%d bytes, limit %d: error %v, want an *http.MaxBytesError", len(c.body), c.limit, err)
		case !c.tooBig && (err != nil || string(got) != c.body):
			t.Errorf("%d bytes, limit %d: %d bytes, %v", len(c.body), c.limit, len(got), err)
		}
		b.release()
	}
}
