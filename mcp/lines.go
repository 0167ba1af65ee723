package mcp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineBufferSize is the size of a lineReader's buffer; longer lines are
// assembled, up to the reader's limit.
const lineBufferSize = 64 << 10

// errTooLong is what lineReader.next reports for a line over the limit.
var errTooLong = errors.New("line too long")

// lineReader reads newline-delimited lines of at most max bytes, the
// newline not counted, without copying the usual short line.
type lineReader struct {
	br   *bufio.Reader
	max  int
	long []byte // a line longer than the buffer, being assembled
	err  error  // of the input, once a line over the limit has met it
}

// newLineReader returns a lineReader of lines from r of at most max bytes.
func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, lineBufferSize), max: max}
}

// next returns the next line, valid until the next call. At the end of
// the input it returns the last line, if any, with io.EOF. A line over the
// limit is skipped: next returns its first max bytes with errTooLong, and
// the line after it on the next call.
func (r *lineReader) next() ([]byte, error) {
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
			return prefix, errTooLong
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
			return line[:r.max], errTooLong
		}
		return line, err
	}
}

// skipLine discards input up to and including the next newline.
func (r *lineReader) skipLine() error {
	for {
		_, err := r.br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}
