package jsonwire

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
)

// stringCases are texts that exercise every escape.
var stringCases = []string{
	"", "Frank Herbert", `a "quoted" \ back`, "\x00\x01\b\f\n\r\t\x1f\x7f", "<b>&amp;</b>",
	"café 😀", "\u2028\u2029", "a\xffb\xc3", "\xed\xa0\x80",
}

// checkAppendString compares AppendString with encoding/json, HTML
// escaping off.
func checkAppendString(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if got := AppendString([]byte("x"), s); string(got) != "x"+string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
		t.Errorf("AppendString(%q) = %s; encoding/json gives %s", s, got[1:], want.Bytes())
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		checkAppendString(t, s)
	}
}

// FuzzAppendString looks for a text that AppendString encodes differently
// from encoding/json: go test -run '^$' -fuzz FuzzAppendString ./internal/jsonwire/
func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(checkAppendString)
}

func TestLogValuer(t *testing.T) {
	if got := (LogValuer{[]string{"a<b"}}).LogValue().String(); got != `["a\u003cb"]` {
		t.Errorf("LogValue of a list: %s", got)
	}
	if got := (LogValuer{func() {}}).LogValue().Kind(); got != slog.KindAny {
		t.Errorf("LogValue of a func: kind %v, want the value itself", got)
	}
}
