package callpath

import (
	"fmt"
	"strconv"
	"strings"
)

// A block is one basic block of a coverage profile: a range of a file's
// source, by line and byte column, both counted from 1.
type block struct {
	File                string // as the profile names it: import path/file.go
	StartLine, StartCol int
	EndLine, EndCol     int
	Statements, Count   int
}

// parseProfile reads a coverage profile in the text form that go tool
// covdata textfmt and go test -coverprofile write:
//
//	mode: set
//	github.com/mcpbookshop/guide/mcp/server.go:120.47,123.16 3 1
//
// each line after the mode naming a block as file:start,end, its number of
// statements, and its count (in set mode, 1 if it ran). It returns the
// blocks that ran.
func parseProfile(text string) ([]block, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "mode: ") {
		return nil, fmt.Errorf("coverage profile: first line %q, want \"mode: ...\"", lines[0])
	}
	var covered []block
	for i, line := range lines[1:] {
		b, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("coverage profile, line %d: %v: %q", i+2, err, line)
		}
		if b.Count > 0 {
			covered = append(covered, b)
		}
	}
	return covered, nil
}

// parseBlock reads one block line of a profile.
func parseBlock(line string) (block, error) {
	var b block
	rest, count, ok1 := cutLast(line, " ")
	rest, stmts, ok2 := cutLast(rest, " ")
	file, span, ok3 := cutLast(rest, ":")
	start, end, ok4 := strings.Cut(span, ",")
	if !ok1 || !ok2 || !ok3 || !ok4 || file == "" {
		return b, fmt.Errorf("want file:line.col,line.col statements count")
	}
	b.File = file
	var err error
	for _, f := range []struct {
		s   string
		dst *int
	}{{count, &b.Count}, {stmts, &b.Statements}} {
		if *f.dst, err = strconv.Atoi(f.s); err != nil {
			return b, err
		}
	}
	if b.StartLine, b.StartCol, err = parsePos(start); err != nil {
		return b, err
	}
	if b.EndLine, b.EndCol, err = parsePos(end); err != nil {
		return b, err
	}
	return b, nil
}

// parsePos reads line.col.
func parsePos(s string) (line, col int, err error) {
	l, c, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, fmt.Errorf("position %q, want line.col", s)
	}
	if line, err = strconv.Atoi(l); err != nil {
		return 0, 0, err
	}
	if col, err = strconv.Atoi(c); err != nil {
		return 0, 0, err
	}
	return line, col, nil
}

// cutLast slices s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
