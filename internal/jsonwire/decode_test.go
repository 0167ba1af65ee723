package jsonwire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// edgeLines are lines on which the scanner, Unmarshal and encoding/json
// could part ways: names in another case, repeated or escaped; nulls;
// wrong types; invalid UTF-8 and escaped surrogates; numbers of every
// form; whitespace; trailing data; deep nesting; and bare arguments
// objects, as the typed decode reads them.
var edgeLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"}}}`,
	`{"JSONRPC":"2.0","Id":1,"METHOD":"tools/call","Params":{"NAME":"x","Arguments":{}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"a","method":"b","params":{"name":"x","name":"y"}}`,
	`{"jsonrpc":"2.0","id":1,"x":1,"x":2,"method":"m","params":{"arguments":{"a":1,"a":2}}}`,
	`{"jsonrpc":"2.0","id":"\u00e9\ud83d\ude00","method":"tools/call","params":{"name":"caf\u00e9\ud800x\udc00\ud800\u0041"}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"m\"}",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\",\"params\":{\"name\":\"a\xc0b\"}}",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":42}}`,
	`{"jsonrpc":2,"id":1,"method":"tools/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`,
	`{"jsonrpc":"2.0","id":null,"method":null}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"x","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`,
	`{"jsonrpc":"2.0","id":-0.5E+3,"method":"x","params":{"arguments":{"n":[0,-0,1.5e-400,1e400,12345678901234567890]}}}`,
	`{"jsonrpc":"2.0","id":01,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1.,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} trailing`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} {}`,
	`{"jsonrpc":"2.0","id":1,"method":"x"`,
	`{"jsonrpc":"2.0","id":1,"method":"x",}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":[1,]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"a\qb"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\tb\"}",
	`[{"jsonrpc":"2.0"}]`,
	`"just a string"`,
	`{}`, `null`, ``, ` `, `{`, `}`, `tru`, `nul`,
	` { "jsonrpc" : "2.0" , "id" : -1.5e3 , "method" : "tools/call" , "params" : { "name" : "t" , "arguments" : { } } } ` + "\r\n\t",
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_META":{"io.modelcontextprotocol/protocolversion":"1"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","tracestate":"congo=t61rcWkgMzE"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"traceparent":7,"tracestate":null}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"traceparent":{"a":[1]},"tracestate":"a\u003db"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"traceparent":"a","traceparent":null,"Tracestate":"c"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"TRACEPARENT":"a","tracestate":"\ud800"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1","reason":"user"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":[true,false,null]},"error":null}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"uri":"a\\b\/c\"d\n","name":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","extra":{"method":"y"},"params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":[{"a":"}"},"\\"",[]]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":{"a\u0000\"b":{"c":[true,null,"\ud800"]},"b":"x"}}}`,
	`{"jsonrpc":"2.0","id":true,"method":"x","params":"p"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","\u006dethod":"y"}`,
	`{"jsonrpc":"2.0","id":1,"\u006dethod":"y","params":{"na\u006de":"n","protocolVersion":"v","arguments":"s","uri":"u","requestId":[]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"é😀"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":{"arguments":{` + strings.Repeat(`"k":1,`, 20) + `"l":2}}}`,
	`{"JSONRPC":"2.0","ID":1,"Method":"tools/call","PARAMS":{"NAME":"x","Arguments":{}}}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":[1,"]}"]},"clientInfo":{"name":"c","version":"1"}}}`,
	`{"title":"Dune","extra":[1,{"a":null}],"n":-0.5e-3}`,
	`{"title":42}`,
	`{"Title":"Dune"}`,
	`{"title":"Dune","title":"Neuromancer"}`,
	`{"title":"a\u0000b\\n\"c"}`,
	`{"title":null}`,
}

// checkScanMessage fails unless the line, when scanMessage scans it,
// decodes as Unmarshal decodes it, and its scanned arguments read as
// encoding/json reads them; and unless scanMessage scans a plain line. It
// reports whether the line was scanned.
func checkScanMessage(t *testing.T, line []byte) bool {
	t.Helper()
	got := scanMessage(line)
	if got == nil {
		if plainLine(line) {
			t.Errorf("scanMessage(%q) declined a plain line", line)
		}
		return false
	}
	var want Message
	if err := Unmarshal(line, &want); err != nil {
		t.Fatalf("scanMessage(%q) scanned a line Unmarshal refuses: %v", line, err)
	}
	if got.Params != nil {
		if got.Params.Arguments != nil {
			checkValue(t, got.Params.Arguments, got.Params.Args)
		}
		got.Params.Args = Value{}
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("scanMessage(%q) = %s; Unmarshal gives %s", line, show(got), show(&want))
	}
	return true
}

// plainLine reports whether line is valid JSON in valid UTF-8, nested at
// most maxDepth deep, an object whose members Message, Params and
// RequestMeta name are given once each, not null, with their fields'
// types: a line scanMessage must scan.
func plainLine(line []byte) bool {
	if !validJSON(line, true) || nested(line) > maxDepth {
		return false
	}
	top, ok := members(line)
	if !ok {
		return false
	}
	for name, v := range top {
		switch name {
		case "jsonrpc", "method":
			ok = v.Kind() == '"'
		case "id", "result", "error":
			ok = v.Kind() != 'n'
		case "params":
			var p map[string]jsontext.Value
			if p, ok = members(v); !ok {
				return false
			}
			for name, v := range p {
				switch name {
				case "protocolVersion", "name", "uri":
					ok = v.Kind() == '"'
				case "arguments", "requestId":
					ok = v.Kind() != 'n'
				case "_meta":
					var m map[string]jsontext.Value
					if m, ok = members(v); !ok {
						return false
					}
					ok = m[metaNames[0]] == nil || m[metaNames[0]].Kind() == '"'
					ok = ok && (m[metaNames[1]] == nil || m[metaNames[1]].Kind() != 'n')
				}
				if !ok {
					return false
				}
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// members returns the members of a JSON object, reporting false for
// anything else and for an object that gives a name twice.
func members(data []byte) (map[string]jsontext.Value, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	m := map[string]jsontext.Value{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // before ReadValue voids tok
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		m[name] = bytes.Clone(v)
	}
	return m, true
}

// show formats a message for a failure, its pointers followed.
func show(m *Message) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// TestTraceContextIsPassedOn checks that the trace context keys of _meta
// are read as the strings given, scanned or not, and that any other value
// is read as "" without an error.
func TestTraceContextIsPassedOn(t *testing.T) {
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, tt := range []struct {
		meta                    string
		traceparent, tracestate Passed
	}{
		{`{"traceparent":"` + tp + `","tracestate":"congo=t61rcWkgMzE"}`, tp, "congo=t61rcWkgMzE"},
		{`{"traceparent":"` + tp + `"}`, tp, ""},
		{`{"traceparent":7,"tracestate":null}`, "", ""},
		{`{"traceparent":["a"],"tracestate":{"b":1}}`, "", ""},
		{`{"traceparent":"a\u003db"}`, "a=b", ""},
		{`{"traceparent":"a","traceparent":"b"}`, "b", ""}, // repeated: decoded, not scanned
		{`{"Traceparent":"a"}`, "", ""},
	} {
		line := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + tt.meta + `}}`
		m, err := DecodeMessage([]byte(line))
		if err != nil {
			t.Errorf("%s: %v", tt.meta, err)
			continue
		}
		if got := m.Params.Meta; got.Traceparent != tt.traceparent || got.Tracestate != tt.tracestate {
			t.Errorf("%s: traceparent %q, tracestate %q; want %q, %q", tt.meta, got.Traceparent, got.Tracestate, tt.traceparent, tt.tracestate)
		}
	}
}

// TestPartsSize checks that a scanned message stays in one allocation of
// the 512-byte size class: a field added to Message, Params or RequestMeta
// must take its room from elsewhere (from the nodes, say), or every
// request pays the next class.
func TestPartsSize(t *testing.T) {
	if size := unsafe.Sizeof(parts{}); size > 512 {
		t.Errorf("parts is %d bytes, more than 512", size)
	}
}

// authorArgs is chapter 01's argument type, as the typed decode reads it.
type authorArgs struct {
	Title string `json:"title"`
}

// TestUnmarshalMatchesEncodingJSON checks that Unmarshal gives what
// encoding/json gives, value and error text, into each type it serves,
// names matched exactly (see exactJSON).
func TestUnmarshalMatchesEncodingJSON(t *testing.T) {
	for _, line := range edgeLines {
		data := []byte(line)
		checkUnmarshal[Message](t, data)
		checkUnmarshal[authorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	}
}

func checkUnmarshal[T any](t *testing.T, data []byte) {
	t.Helper()
	var got, want T
	gotErr := Unmarshal(data, &got)
	ref := data
	if reflect.TypeFor[T]().Kind() == reflect.Struct { // whose fields match names
		ref = exactJSON(data)
	}
	wantErr := json.Unmarshal(ref, &want)
	if !reflect.DeepEqual(got, want) || errText(gotErr) != errText(wantErr) {
		t.Errorf("unmarshal(%q) into %T = %+v, %v; encoding/json gives %+v, %v", data, got, got, gotErr, want, wantErr)
	}
}

// exactJSON returns data with every member name that differs only in case
// from a field name the tests decode into renamed to an unrelated one
// ("Id" to "~Id"), so that encoding/json, which matches names in any case,
// reads it as a decoder matching names exactly reads data. Data that is
// not valid JSON is returned as it is.
func exactJSON(data []byte) []byte {
	fields := []string{"jsonrpc", "id", "method", "params", "result", "error", // message
		"_meta", "protocolVersion", "name", "arguments", "uri", "requestId", // params
		"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities", "traceparent", "tracestate", "title"}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var out []byte
	last := 0
	for {
		start := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		// A name is a string that makes an object's length odd.
		if kind, n := dec.StackIndex(dec.StackDepth()); tok.Kind() != '"' || kind != '{' || n%2 == 0 {
			continue
		}
		name := tok.String()
		if slices.Contains(fields, name) || !slices.ContainsFunc(fields, func(f string) bool { return strings.EqualFold(f, name) }) {
			continue
		}
		quote := int(start) + bytes.IndexByte(data[start:], '"')
		out = append(append(out, data[last:quote+1]...), '~')
		last = quote + 1
	}
	if last == 0 {
		return data
	}
	return append(out, data[last:]...)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// BenchmarkUnmarshalEngines compares the two engines Unmarshal uses, on a
// tools/call line and on its arguments. When Unmarshal was written, the v2
// engine decoded the line about twice as fast as encoding/json, with 6
// allocations instead of 16, and the arguments into their struct with 1
// instead of 6.
func BenchmarkUnmarshalEngines(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"}}}`)
	args := []byte(`{"title":"Dune"}`)
	b.Run("message/unmarshal", func(b *testing.B) { benchUnmarshal[Message](b, line, Unmarshal) })
	b.Run("message/encoding-json", func(b *testing.B) { benchUnmarshal[Message](b, line, stdUnmarshal) })
	b.Run("any/unmarshal", func(b *testing.B) { benchUnmarshal[any](b, args, Unmarshal) })
	b.Run("any/encoding-json", func(b *testing.B) { benchUnmarshal[any](b, args, stdUnmarshal) })
	b.Run("args/unmarshal", func(b *testing.B) { benchUnmarshal[authorArgs](b, args, Unmarshal) })
	b.Run("args/encoding-json", func(b *testing.B) { benchUnmarshal[authorArgs](b, args, stdUnmarshal) })
}

func stdUnmarshal[T any](data []byte, v *T) error { return json.Unmarshal(data, v) }

func benchUnmarshal[T any](b *testing.B, data []byte, f func([]byte, *T) error) {
	b.ReportAllocs()
	for b.Loop() {
		var v T
		if err := f(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzUnmarshal looks for a line on which Unmarshal and encoding/json
// differ: go test -run '^$' -fuzz FuzzUnmarshal ./internal/jsonwire/
func FuzzUnmarshal(f *testing.F) {
	for _, line := range edgeLines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkUnmarshal[Message](t, data)
		checkUnmarshal[authorArgs](t, data)
		checkUnmarshal[map[string]any](t, data)
	})
}

func TestLeadingMember(t *testing.T) {
	for _, c := range []struct{ prefix, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/ca`, `7`},
		{`{"id":"a\"b","id":2`, `"a\"b"`},
		{`{"method":"x","params":{"id":1},"id":"r`, ``},
		{`{"method":"x","params":{"id":1},"id":"r"}`, `"r"`},
		{`{"method":"x","params":{"id":1}`, ``},
		{`{"method":x,"id":1}`, ``},
		{`[{"id":1}]`, ``},
		{``, ``},
	} {
		if got := LeadingMember([]byte(c.prefix), "id"); string(got) != c.want {
			t.Errorf("LeadingMember(%q) = %q, want %q", c.prefix, got, c.want)
		}
	}
}

// richArgs has a field of every kind a Decoder fills.
type richArgs struct {
	S      string             `json:"s"`
	N      int8               `json:"n,omitempty"`
	U      uint16             `json:"u"`
	F      float32            `json:"f"`
	B      bool               `json:"b"`
	P      *int               `json:"p"`
	L      []string           `json:"l"`
	M      map[string]float64 `json:"m"`
	A      any                `json:"a"`
	Nested struct {
		X []int `json:"x"`
	} `json:"nested"`
	Untagged string
	Skipped  string `json:"-"`
	//lint:ignore U1000 set by no one on purpose: a Decoder must leave an unexported field alone
	hidden string // unexported: never filled; the test compares it, so it must stay ""
}

// shelf is a recursive argument type.
type shelf struct {
	Name  string  `json:"name"`
	Kids  []shelf `json:"kids"`
	Owner *shelf  `json:"owner"`
}

// argValues are arguments on which a Decoder's walk and Unmarshal could
// part ways: every kind, nulls, numbers that do not fit, wrong types,
// names in another case, and recursion.
var argValues = []string{
	`{"s":"x","n":127,"u":65535,"f":1.5,"b":true,"p":3,"l":["a","b"],"m":{"a":1,"b":-2e3},"a":[1,"x",null,{"k":false}],"nested":{"x":[1,2]},"Untagged":"u","Skipped":"s","hidden":"h"}`,
	`{"n":128}`, `{"n":-129}`, `{"n":1.5}`, `{"n":1e2}`, `{"n":"1"}`, `{"n":-0}`, `{"u":-1}`, `{"f":1e39}`, `{"f":-1e-50}`,
	`{"l":null,"m":null,"p":null,"a":null,"nested":null,"s":null,"n":null,"b":null}`,
	`{"l":[null,"a"]}`, `{"l":[1]}`, `{"l":{}}`, `{"m":{"a":"x"}}`, `{"m":[]}`, `{"b":"true"}`, `{"s":1}`, `{"p":"x"}`,
	`{"S":"case","N":1,"untagged":"x"}`, `{"a":{"deep":[[[]]]}}`, `{"nested":{"x":null}}`, `{"nested":[]}`,
	`{"name":"top","kids":[{"name":"a","kids":[]},{"kids":null}],"owner":{"name":"o"}}`,
	`{"kids":[{"kids":[{"name":7}]}]}`,
	`[1,2]`, `"str"`, `null`, `true`, `12`, `{}`, `[]`,
	`{"title":"Dune"}`, `{"title":"a\u0000b\\n\"c\ud800"}`, `{"title":"Dune","title":"x"}`, `{"s":"x","n":1e400}`,
}

// TestDecoderMatchesUnmarshal checks that a Decoder gives what Unmarshal
// gives, value and error text, on every edge value and line, and that it
// fills the values it should by its own walk, not by falling back.
func TestDecoderMatchesUnmarshal(t *testing.T) {
	filled := 0
	for _, s := range append(argValues, edgeLines...) {
		data := []byte(s)
		for _, ok := range []bool{
			checkDecoder[authorArgs](t, data), checkDecoder[richArgs](t, data), checkDecoder[shelf](t, data),
			checkDecoder[map[string]any](t, data), checkDecoder[any](t, data), checkDecoder[[]any](t, data),
			checkDecoder[map[string][]*int](t, data), checkDecoder[struct{ T time.Time }](t, data),
		} {
			if ok {
				filled++
			}
		}
	}
	if filled < 60 {
		t.Errorf("the walk filled %d values; the rest fell back to Unmarshal", filled)
	}
	for _, s := range []string{argValues[0], `{"title":"Dune"}`} {
		if !checkDecoder[richArgs](t, []byte(s)) || !checkDecoder[authorArgs](t, []byte(s)) {
			t.Errorf("%s: not filled by the walk", s)
		}
	}
	if NewDecoder[struct{ T time.Time }]().fill != nil {
		t.Error("a Decoder fills a time.Time, which decodes itself")
	}
}

// checkDecoder compares a Decoder of T with Unmarshal on data, and reports
// whether the Decoder's walk filled the value itself.
func checkDecoder[T any](t *testing.T, data []byte) (filled bool) {
	t.Helper()
	var want T
	wantErr := Unmarshal(data, &want)
	d := NewDecoder[T]()
	v, _ := ScanValue(data)
	if d.fill != nil && v.Plain() {
		var got T
		if filled = d.fill(v, reflect.ValueOf(&got).Elem()); filled && (wantErr != nil || !reflect.DeepEqual(got, want)) {
			t.Errorf("walk of %s into %T = %+v; Unmarshal gives %+v, %v", data, got, got, want, wantErr)
		}
	}
	var got T
	if err := d.Decode(v, data, &got); !reflect.DeepEqual(got, want) || errText(err) != errText(wantErr) {
		t.Errorf("Decode(%s) into %T = %+v, %v; Unmarshal gives %+v, %v", data, got, got, err, want, wantErr)
	}
	return filled
}

// FuzzDecoder looks for arguments on which a Decoder and Unmarshal differ:
// go test -run '^$' -fuzz FuzzDecoder ./internal/jsonwire/
func FuzzDecoder(f *testing.F) {
	for _, s := range argValues {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoder[richArgs](t, data)
		checkDecoder[shelf](t, data)
		checkDecoder[map[string]any](t, data)
	})
}

// TestValidID holds the one reading of a JSON-RPC id that the server and
// internal/lockstep share. A string in invalid UTF-8 is JSON to
// encoding/json (json.Valid accepts it, and Unmarshal repairs each bad byte
// to U+FFFD), but no id: the case checks that json.Valid accepts each such
// id, so that what refuses it is the UTF-8 rule alone.
func TestValidID(t *testing.T) {
	for _, tt := range []struct {
		id          string
		valid       bool
		invalidUTF8 bool
	}{
		{`1`, true, false},
		{`0`, true, false},
		{`-7`, true, false},
		{`1.5e3`, true, false},
		{`"a"`, true, false},
		{`""`, true, false},
		{`"caf\u00e9"`, true, false},
		{"\"caf\u00e9\"", true, false},
		{`"\ud800"`, true, false},         // an escaped lone surrogate is valid UTF-8 text, echoed as sent
		{"\"a\xffb\"", false, true},       // a stray byte
		{"\"\xc3\"", false, true},         // a cut sequence
		{"\"\xed\xa0\x80\"", false, true}, // a surrogate encoded in UTF-8
		{"\"\xc0\xaf\"", false, true},     // an overlong encoding
		{`null`, false, false},
		{`true`, false, false},
		{`false`, false, false},
		{`{}`, false, false},
		{`[1]`, false, false},
		{``, false, false},
	} {
		if got := ValidID([]byte(tt.id)); got != tt.valid {
			t.Errorf("ValidID(%q) = %v, want %v", tt.id, got, tt.valid)
		}
		if tt.invalidUTF8 {
			var s string
			if !json.Valid([]byte(tt.id)) || json.Unmarshal([]byte(tt.id), &s) != nil || !strings.ContainsRune(s, utf8.RuneError) {
				t.Errorf("%q: encoding/json does not read it as a string repaired with U+FFFD, as the case says", tt.id)
			}
		}
	}
}
