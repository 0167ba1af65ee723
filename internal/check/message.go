package check

import (
	"bytes"
	"encoding/json"
)

// unsupportedVersion is the protocol version no server speaks, which the
// lesson of an unsupported version asks for.
const unsupportedVersion = "1900-01-01"

// response is a JSON-RPC response as the check reads one.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// readResponse reports whether line is a JSON-RPC response, and its id,
// compact ("null" for null, "" for none).
func readResponse(line []byte) (id string, ok bool) {
	var r response
	if json.Unmarshal(line, &r) != nil || r.Result == nil && r.Error == nil {
		return "", false
	}
	return compactJSON(r.ID), true
}

// isMessage reports whether line is JSON-RPC: an object or an array of
// them with "jsonrpc", as a server may write.
func isMessage(line []byte) bool {
	line = bytes.TrimSpace(line)
	var one struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if json.Unmarshal(line, &one) == nil {
		return one.JSONRPC != ""
	}
	var batch []struct {
		JSONRPC string `json:"jsonrpc"`
	}
	return json.Unmarshal(line, &batch) == nil && len(batch) > 0 && batch[0].JSONRPC != ""
}

// encode returns v as compact JSON, without escaping HTML characters.
func encode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic("check: a message does not encode: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// readRequestID returns the compact id of a request line.
func readRequestID(msg []byte) (string, bool) {
	var r struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &r) != nil || r.ID == nil {
		return "", false
	}
	return compactJSON(r.ID), true
}
