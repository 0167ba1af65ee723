package exchange

import (
	"bytes"
	"encoding/json"
	"errors"
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

// ErrNotPinned is the error PinnedReply wraps when the archive pins no
// reply for the case.
var ErrNotPinned = errors.New("no pinned reply")

// A Reply is a pinned reply as a client reads it.
type Reply struct {
	// Text is the result's first text: its content[0].text (a tool call)
	// or contents[0].text (a resource read); for an error, its message.
	Text string
	// IsError is the result's isError: true for a tool error.
	IsError bool
	// Code is the JSON-RPC error's code, 0 for a result.
	Code int
	// Data is the JSON-RPC error's data as pinned, nil for none.
	Data json.RawMessage
}

// textBlock is what PinnedReply reads of a content block.
type textBlock struct {
	Text *string `json:"text"`
}

// PinnedReply returns the first reply that the txtar archive (a script of
// testdata/scripts) pins for the case: the first line of the archive's
// want/<name>.jsonl, decoded. In a modern-era script, which sends no
// handshake, that is the reply to the case's first request. The tests that
// check a chapter's texts through other clients read them here, so that a
// reworded message is pinned in one place. An archive without the case
// gives an error wrapping ErrNotPinned.
func PinnedReply(archive, name string) (Reply, error) {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		return Reply{}, err
	}
	want := "want/" + name + ".jsonl"
	var cases []string
	for _, f := range ar.Files {
		if f.Name != want {
			if c, ok := strings.CutPrefix(f.Name, "want/"); ok {
				cases = append(cases, strings.TrimSuffix(c, ".jsonl"))
			}
			continue
		}
		line, _, _ := bytes.Cut(f.Data, []byte("\n"))
		if len(bytes.TrimSpace(line)) == 0 {
			return Reply{}, fmt.Errorf("%s: %s is empty: pin the case's replies first", archive, want)
		}
		var r struct {
			Result *struct {
				Content  []textBlock `json:"content"`
				Contents []textBlock `json:"contents"`
				IsError  bool        `json:"isError"`
			} `json:"result"`
			Error *struct {
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return Reply{}, fmt.Errorf("%s: %s: %v in %s", archive, want, err, line)
		}
		switch {
		case r.Error != nil:
			return Reply{Text: r.Error.Message, Code: r.Error.Code, Data: r.Error.Data}, nil
		case r.Result != nil:
			for _, blocks := range [][]textBlock{r.Result.Content, r.Result.Contents} {
				if len(blocks) > 0 && blocks[0].Text != nil {
					return Reply{Text: *blocks[0].Text, IsError: r.Result.IsError}, nil
				}
			}
		}
		return Reply{}, fmt.Errorf("%s: the first line of %s has no text (result.content[0].text, result.contents[0].text or error.message): %s", archive, want, line)
	}
	return Reply{}, fmt.Errorf("%s: %w for %q: its cases are %s", archive, ErrNotPinned, name, strings.Join(cases, ", "))
}
