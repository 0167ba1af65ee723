// Package linereader reads newline-delimited lines of bounded length
// without copying the usual short line.
package linereader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// BufferSize is the size of a Reader's buffer; longer lines are assembled,
// up to the Reader's limit.
const BufferSize = 64 << 10

// ErrTooLong is what Next reports for a line longer than the limit.
var ErrTooLong = errors.New("line too long")

// Reader reads lines of at most max bytes, the newline not counted.
type Reader struct {
	br   *bufio.Reader
	max  int
	long []byte // a line longer than the buffer, being assembled
	err  error  // of the input, once a line over the limit has met it
}

// New returns a Reader of lines from r of at most max bytes.
func New(r io.Reader, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, BufferSize), max: max}
}

// Next returns the next line, valid until the next call. At the end of the
// input it returns the last line, if any, with io.EOF. A line over the
// limit is skipped: Next returns its first max bytes with ErrTooLong, and
// the line after it on the next call.
func (r *Reader) Next() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			r.long = append(r.long, chunk...)
			if len(r.long) <= r.max {
				continue
			}
			prefix := r.long[:r.max]
			r.long = r.long[:0]
			if err := r.skipLine(); err != nil {
				r.err = err
				if err != io.EOF {
					return nil, err
				}
			}
			return prefix, ErrTooLong
		case err != nil && err != io.EOF:
			return nil, err
		}
		line := chunk
		if len(r.long) > 0 {
			line = append(r.long, chunk...)
			r.long = r.long[:0]
		}
		if len(bytes.TrimSuffix(line, []byte("\n"))) > r.max {
			r.err = err // shorter than the buffer, but over the limit
			return line[:r.max], ErrTooLong
		}
		return line, err
	}
}

// skipLine discards input up to and including the next newline.
func (r *Reader) skipLine() error {
	for {
		_, err := r.br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}
