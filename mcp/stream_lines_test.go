package mcp

import (
	"io"
	"strings"
	"testing"
)

// read returns what successive calls of lineReader.next give on input, limit max:
// each line, or "!" and the prefix of a line over the limit, up to the
// error that ends the input.
func readLines(input string, max int) ([]string, error) {
	r := newLineReader(strings.NewReader(input), max)
	var got []string
	for {
		line, err := r.next()
		switch err {
		case errTooLong:
			got = append(got, "!"+string(line))
			continue
		case nil:
			got = append(got, string(line))
			continue
		}
		if len(line) > 0 {
			got = append(got, string(line))
		}
		return got, err
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", lineBufferSize+10)
	for _, c := range []struct {
		input string
		max   int
		want  []string
	}{
		{"a\nbb\n", 10, []string{"a\n", "bb\n"}},
		{"a\nlast", 10, []string{"a\n", "last"}},
		{"", 10, nil},
		{"12345\n123456\nok\n", 5, []string{"12345\n", "!12345", "ok\n"}},
		{"ok\n123456", 5, []string{"ok\n", "!12345"}},
		{long + "\nok\n", 3, []string{"!xxx", "ok\n"}},
		{long, 3, []string{"!xxx"}},
		{long + "\nok\n", 2 * lineBufferSize, []string{long + "\n", "ok\n"}},
		{long + long + "\nok\n", lineBufferSize + 20, []string{"!" + (long + long)[:lineBufferSize+20], "ok\n"}},
	} {
		got, err := readLines(c.input, c.max)
		if err != io.EOF {
			t.Errorf("%.20q: ended with %v, want io.EOF", c.input, err)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%.20q, limit %d: %.60q, want %.60q", c.input, c.max, got, c.want)
		}
	}
}
