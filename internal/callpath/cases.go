package callpath

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// modernMeta is the _meta every request of the table carries: a modern
// (2026-07-28) request needs no initialize, so a session is this one line.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// A Case is one measured call: the request line a session sends, and
// the reply it must get for the measure to mean anything.
type Case struct {
	Name    string // as -case names it
	Chapter string // the directory of chapters/ it applies to
	Request string // one JSON-RPC line, without its newline
	Expect  Expect
}

// Expect is the kind of reply a case must get to request id 1.
type Expect string

const (
	ExpectResult    Expect = "result"     // a result without "isError":true
	ExpectToolError Expect = "tool-error" // a result with "isError":true
	ExpectError     Expect = "error"      // a JSON-RPC error
)

// Cases are the measured calls, with the requests of the pins in
// testdata/scripts/<chapter>/modern.txtar.
var Cases = []Case{
	{
		Name:    "success",
		Chapter: "01-tool-errors",
		Request: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"},` + modernMeta + `}}`,
		Expect:  ExpectResult,
	},
	{
		Name:    "tool-error",
		Chapter: "01-tool-errors",
		Request: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Nothing"},` + modernMeta + `}}`,
		Expect:  ExpectToolError,
	},
	{
		Name:    "read-found",
		Chapter: "03-resources",
		Request: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"books://Dune",` + modernMeta + `}}`,
		Expect:  ExpectResult,
	},
	{
		Name:    "read-not-found",
		Chapter: "03-resources",
		Request: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"books://Nothing",` + modernMeta + `}}`,
		Expect:  ExpectError,
	},
}

// SelectCases returns the cases of chapter (a directory name of chapters/)
// that names asks for: a comma-separated list of case names, or "all".
func SelectCases(chapter, names string) ([]Case, error) {
	var mine, known []string
	var out []Case
	for _, c := range Cases {
		known = append(known, c.Name+" ("+c.Chapter+")")
		if c.Chapter == chapter {
			mine = append(mine, c.Name)
		}
	}
	if names == "all" || names == "" {
		for _, c := range Cases {
			if c.Chapter == chapter {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no case measures chapter %s; the cases are %s; or give your own with -request and -expect", chapter, strings.Join(known, ", "))
		}
		return out, nil
	}
	for name := range strings.SplitSeq(names, ",") {
		i := slices.IndexFunc(Cases, func(c Case) bool { return c.Name == name })
		switch {
		case i < 0:
			return nil, fmt.Errorf("-case %s: no such case; the cases are %s", name, strings.Join(known, ", "))
		case Cases[i].Chapter != chapter:
			return nil, fmt.Errorf("-case %s calls chapter %s, not %s: pass -chapter chapters/%s, or one of %s for %s", name, Cases[i].Chapter, chapter, Cases[i].Chapter, strings.Join(mine, ", "), chapter)
		}
		out = append(out, Cases[i])
	}
	return out, nil
}

// reply is what check reads of a response.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// check reports whether stdout, the server's whole output in c's session,
// is the one reply c expects, and if not, what is wrong with it; the
// caller shows stdout.
func (c Case) check(stdout string) error {
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if stdout == "" {
		return fmt.Errorf("no reply: the server wrote nothing on stdout; want one line, %s", c.Expect.describe())
	}
	if len(lines) != 1 {
		return fmt.Errorf("%d lines on stdout, want one reply, %s", len(lines), c.Expect.describe())
	}
	var r reply
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		return fmt.Errorf("the reply is not a JSON object: %v", err)
	}
	if string(r.ID) != "1" {
		return fmt.Errorf("the reply has id %s, want 1, the request's", r.ID)
	}
	var ok bool
	switch c.Expect {
	case ExpectResult:
		ok = r.Result != nil && !r.Result.IsError
	case ExpectToolError:
		ok = r.Result != nil && r.Result.IsError
	case ExpectError:
		ok = r.Error != nil
	}
	if !ok {
		return fmt.Errorf("the reply is not %s, as a %s case wants", c.Expect.describe(), c.Expect)
	}
	return nil
}

// describe says what a reply of kind e holds.
func (e Expect) describe() string {
	switch e {
	case ExpectResult:
		return `a "result" without "isError":true`
	case ExpectToolError:
		return `a "result" with "isError":true`
	case ExpectError:
		return `an "error" object`
	}
	return "unknown kind " + string(e)
}

// ParseExpect reads an expected kind of reply, as -expect gives it.
func ParseExpect(s string) (Expect, error) {
	switch e := Expect(s); e {
	case ExpectResult, ExpectToolError, ExpectError:
		return e, nil
	}
	return "", fmt.Errorf("-expect %q: want result, tool-error or error", s)
}
