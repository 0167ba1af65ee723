package lockstep

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/mcpbookshop/guide/internal/jsonwire"
)

// ExpectsReply reports whether a server owes line a reply. JSON-RPC 2.0
// answers every line but a well-formed notification or response, so
// everything else is owed one, including what the server cannot parse:
//
//   - a notification is an object with "jsonrpc": "2.0", a non-empty string
//     "method" and no "id" (not even null);
//   - a response is an object with "jsonrpc": "2.0", no "method", a string
//     or number "id" and a "result" or an "error";
//   - a batch (a non-empty array) is owed one reply unless every member is
//     owed none; an empty array is an invalid request, and answered;
//   - a blank line is owed nothing: servers skip it.
//
// The rule reads the line alone, so it cannot foresee that a server whose
// session takes no batches answers even a batch of notifications, with an
// error.
func ExpectsReply(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return false
	}
	var batch []json.RawMessage
	if line[0] == '[' && json.Unmarshal(line, &batch) == nil && len(batch) > 0 {
		for _, item := range batch {
			if ExpectsReply(item) {
				return true
			}
		}
		return false
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" {
		return true
	}
	notification := m.ID == nil && m.Method != nil && *m.Method != ""
	response := m.Method == nil && jsonwire.ValidID(m.ID) && (m.Result != nil || m.Error != nil)
	return !notification && !response
}

// OwedReplies reports, for each of lines, whether the server owes it a
// reply. That is [ExpectsReply], but for a request that a later line
// cancels: a notifications/cancelled whose params.requestId is the
// request's id. A server must send no response to a cancelled request, so
// none is owed.
//
// The rule reads the lines alone, so it cannot know whether the request is
// still running when its cancellation arrives; a server answers a request
// that finished first. Lines that cancel a request are deterministic only
// when the request's handler runs until it is cancelled.
func OwedReplies(lines []string) []bool {
	owed := make([]bool, len(lines))
	cancelled := make(map[string]bool) // ids cancelled by a line after the one being read
	for i := len(lines) - 1; i >= 0; i-- {
		line := []byte(lines[i])
		owed[i] = ExpectsReply(line)
		if !owed[i] {
			if id, ok := cancels(line); ok {
				cancelled[id] = true
			}
			continue
		}
		if id, ok := ID(line); ok && cancelled[id] {
			owed[i] = false
		}
	}
	return owed
}

// cancels returns the request id, compacted, that a notifications/cancelled
// line names.
func cancels(line []byte) (string, bool) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "notifications/cancelled" || !jsonwire.ValidID(m.Params.RequestID) {
		return "", false
	}
	return compact(m.Params.RequestID), true
}

// ID returns the id, compacted, of a line that is one JSON-RPC message, a
// request or a response, whose id is a string or a number as the server
// reads one (jsonwire.ValidID: a string in invalid UTF-8 is none); false
// for a line with no such id (a notification, an id null, a batch, not
// JSON).
func ID(line []byte) (string, bool) {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || !jsonwire.ValidID(m.ID) {
		return "", false
	}
	return compact(m.ID), true
}

// compact returns the JSON text of a valid id without insignificant space.
func compact(id json.RawMessage) string {
	var b bytes.Buffer
	json.Compact(&b, id)
	return b.String()
}

// envelope is the part of a JSON-RPC message the checks read.
type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    *int    `json:"code"`
		Message *string `json:"message"`
	} `json:"error"`
}

// checkMessage reports what makes a line a server wrote other than one
// JSON-RPC 2.0 message, or a batch of them, ending in a newline; and, when
// it is one, whether it is a reply: a response or a batch.
func checkMessage(line []byte) (reply bool, err error) {
	body, ok := bytes.CutSuffix(line, []byte("\n"))
	if !ok {
		return false, errors.New("no newline at the end")
	}
	if bytes.ContainsAny(body, "\r\n") {
		return false, errors.New("a line break inside the message")
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) == nil {
		if len(batch) == 0 {
			return false, errors.New("an empty batch")
		}
		for _, m := range batch {
			if _, err := checkOne(m); err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return checkOne(body)
}

// checkOne reports what makes raw other than one JSON-RPC 2.0 message, and
// whether it is a response.
func checkOne(raw []byte) (response bool, err error) {
	var e envelope
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return false, err
	}
	if dec.More() {
		return false, errors.New("more than one JSON value")
	}
	switch {
	case e.JSONRPC == nil || *e.JSONRPC != "2.0":
		return false, errors.New(`"jsonrpc" is not "2.0"`)
	case e.Method != nil:
		return false, nil // a request or notification from the server
	case e.ID == nil:
		return false, errors.New(`a response without "id"`)
	case (e.Result == nil) == (e.Error == nil):
		return false, errors.New(`a response needs exactly one of "result" and "error"`)
	case e.Error != nil && (e.Error.Code == nil || e.Error.Message == nil):
		return false, errors.New(`an error without "code" or "message"`)
	}
	return true, nil
}
