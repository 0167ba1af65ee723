package callpath

import (
	gobuild "go/build"
	"go/scanner"
	"go/token"
	"io"
	"io/fs"
	"path"
	"strings"
)

// Lines is how many code lines some packages hold, and in how many files.
type Lines struct {
	Lines, Files, Packages int
}

// CodeLines counts the code lines of the packages in dirs, from the root
// of fsys: the lines that hold a token, comments and blank lines left
// out, of the files a linux/amd64 build compiles (so not a file built for
// the browser alone), tests left out.
func CodeLines(fsys fs.FS, dirs []string) (Lines, error) {
	ctxt := gobuild.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = "linux", "amd64", false
	ctxt.JoinPath = path.Join
	ctxt.OpenFile = func(name string) (io.ReadCloser, error) { return fsys.Open(name) }
	n := Lines{Packages: len(dirs)}
	for _, dir := range dirs {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return Lines{}, err
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			if ok, err := ctxt.MatchFile(dir, name); err != nil || !ok {
				if err != nil {
					return Lines{}, err
				}
				continue
			}
			src, err := fs.ReadFile(fsys, path.Join(dir, name))
			if err != nil {
				return Lines{}, err
			}
			n.Lines += codeLines(src)
			n.Files++
		}
	}
	return n, nil
}

// codeLines counts the lines of src that hold a token other than a
// comment.
func codeLines(src []byte) int {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0) // comments skipped
	lines, last := 0, 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return lines
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line's end
		}
		if l := file.Line(pos); l != last {
			lines, last = lines+1, l
		}
	}
}
