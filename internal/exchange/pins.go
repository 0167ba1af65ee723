package exchange

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// PinnedRequests returns the request files (req/*) of the archives in the
// chapters' script folders under scripts (scripts/*/*.txtar), in file
// order: each is one line, or a session of lines. The tests that seed
// decoders and fuzz targets with what real clients send read them here.
func PinnedRequests(scripts string) ([][]byte, error) {
	names, err := filepath.Glob(filepath.Join(scripts, "*", "*.txtar"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no pinned scripts in %s: %v", scripts, err)
	}
	var reqs [][]byte
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			return nil, err
		}
		for _, file := range ar.Files {
			if strings.HasPrefix(file.Name, "req/") {
				reqs = append(reqs, file.Data)
			}
		}
	}
	return reqs, nil
}

// Case is one case of a script's archive, as its sections pin it.
type Case struct {
	// Requests are the lines of req/<case>.jsonl.
	Requests []string
	// Replies are the lines of want/<case>.jsonl, the server's replies.
	Replies []string
	// Log is the lines of log/<case>.log, the server's log as
	// NormalizeLog makes it; none if the case pins no log.
	Log []string
}

// Pinned reads the case name of the archive (a path to a .txtar file):
// the tests that check a chapter another way, or behind another
// transport, read the texts they expect here instead of holding copies.
// A case without its request or reply section is an error.
func Pinned(archive, name string) (Case, error) {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		return Case{}, err
	}
	files := make(map[string][]byte)
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	req, want := "req/"+name+".jsonl", "want/"+name+".jsonl"
	if files[req] == nil || files[want] == nil {
		return Case{}, fmt.Errorf("%s has no case %s: it needs the sections %s and %s", archive, name, req, want)
	}
	return Case{
		Requests: nonEmptyLines(files[req]),
		Replies:  nonEmptyLines(files[want]),
		Log:      nonEmptyLines(files["log/"+name+".log"]),
	}, nil
}

// nonEmptyLines returns the lines of b that are not empty, without their
// newlines.
func nonEmptyLines(b []byte) []string {
	var lines []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimRight(line, "\r\n"); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}
