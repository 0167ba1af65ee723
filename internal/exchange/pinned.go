package exchange

import (
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

// PinnedReply returns the first reply that the archive (a script of
// testdata/scripts) pins for the case, decoded: the first line of its
// want/<name>.jsonl. In a modern-era script, which sends no handshake, that
// is the reply to the case's first request. The tests that check a
// chapter's texts through other clients read them here, so that a reworded
// message is pinned in one place. An archive without the case gives an
// error wrapping ErrNotPinned.
func PinnedReply(archive, name string) (Reply, error) {
	c, err := Pinned(archive, name)
	if err != nil {
		return Reply{}, err
	}
	want := "want/" + name + ".jsonl"
	if len(c.Replies) == 0 {
		return Reply{}, fmt.Errorf("%s: %s is empty: pin the case's replies first (go generate ./...)", archive, want)
	}
	line := c.Replies[0]
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
	if err := json.Unmarshal([]byte(line), &r); err != nil {
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
// A case without its request or reply section is an error wrapping
// ErrNotPinned.
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
		return Case{}, fmt.Errorf("%s has no case %s (%w): it needs the sections %s and %s", archive, name, ErrNotPinned, req, want)
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

// Exchange is one pinned case of an archive as its files hold it: the
// bytes of req/<Name>.jsonl and of want/<Name>.jsonl.
type Exchange struct {
	Name              string
	Requests, Replies []byte
}

// ScriptArgs returns the arguments that script, an archive's script, passes
// the server after its name when it exchanges req/<name>.jsonl:
// "exchange req/leak.jsonl 04-handler-failures -leak" gives -leak; nil
// for none. A case run with arguments of its own is not replayed by the
// tests that start a chapter as it is, nor by the guide's Run button
// (internal/site reads the script line the same way).
func ScriptArgs(script []byte, name string) []string {
	for line := range strings.SplitSeq(string(script), "\n") {
		if f := strings.Fields(line); len(f) > 3 && f[0] == "exchange" && f[1] == "req/"+name+".jsonl" {
			return f[3:]
		}
	}
	return nil
}

// Exchanges returns every case of the archive that pins its replies and
// runs the server without arguments of its own (see ScriptArgs), in
// archive order: what the tests that replay the pins through a built
// chapter or another transport send, and compare byte for byte.
func Exchanges(archive string) ([]Exchange, error) {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		return nil, err
	}
	files := make(map[string][]byte)
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	var out []Exchange
	for _, f := range ar.Files {
		name, ok := strings.CutPrefix(f.Name, "req/")
		if want, pinned := files["want/"+name]; ok && pinned && ScriptArgs(ar.Comment, strings.TrimSuffix(name, ".jsonl")) == nil {
			out = append(out, Exchange{strings.TrimSuffix(name, ".jsonl"), f.Data, want})
		}
	}
	return out, nil
}
