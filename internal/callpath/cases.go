package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// modernMeta is the _meta every request of the table carries: a modern
// (2026-07-28) request needs no initialize, so a session is this one line.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// A callCase is one measured call: the request line a session sends, and
// the reply it must get for the measure to mean anything.
type callCase struct {
	Name    string // as -case names it
	Chapter string // the directory of chapters/ it applies to
	Request string // one JSON-RPC line, without its newline
	Expect  expect
}

// expect is the kind of reply a case must get to request id 1.
type expect string

const (
	expectResult    expect = "result"     // a result without "isError":true
	expectToolError expect = "tool-error" // a result with "isError":true
	expectError     expect = "error"      // a JSON-RPC error
)

// cases are the measured calls, with the requests of the pins in
// testdata/scripts/<chapter>/modern.txtar.
var cases = []callCase{
	{
		Name:    "success",
		Chapter: "01-tool-errors",
		Request: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"},` + modernMeta + `}}`,
		Expect:  expectResult,
	},
	{
		Name:    "tool-error",
		Chapter: "01-tool-errors",
		Request: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Nothing"},` + modernMeta + `}}`,
		Expect:  expectToolError,
	},
	{
		Name:    "read-found",
		Chapter: "03-resources",
		Request: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"books://Dune",` + modernMeta + `}}`,
		Expect:  expectResult,
	},
	{
		Name:    "read-not-found",
		Chapter: "03-resources",
		Request: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"books://Nothing",` + modernMeta + `}}`,
		Expect:  expectError,
	},
}

// selectCases returns the cases of chapter (a directory name of chapters/)
// that names asks for: a comma-separated list of case names, or "all".
func selectCases(chapter, names string) ([]callCase, error) {
	var mine, known []string
	var out []callCase
	for _, c := range cases {
		known = append(known, c.Name+" ("+c.Chapter+")")
		if c.Chapter == chapter {
			mine = append(mine, c.Name)
		}
	}
	if names == "all" || names == "" {
		for _, c := range cases {
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
		i := slices.IndexFunc(cases, func(c callCase) bool { return c.Name == name })
		switch {
		case i < 0:
			return nil, fmt.Errorf("-case %s: no such case; the cases are %s", name, strings.Join(known, ", "))
		case cases[i].Chapter != chapter:
			return nil, fmt.Errorf("-case %s calls chapter %s, not %s: pass -chapter chapters/%s, or one of %s for %s", name, cases[i].Chapter, chapter, cases[i].Chapter, strings.Join(mine, ", "), chapter)
		}
		out = append(out, cases[i])
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
func (c callCase) check(stdout string) error {
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
	case expectResult:
		ok = r.Result != nil && !r.Result.IsError
	case expectToolError:
		ok = r.Result != nil && r.Result.IsError
	case expectError:
		ok = r.Error != nil
	}
	if !ok {
		return fmt.Errorf("the reply is not %s, as a %s case wants", c.Expect.describe(), c.Expect)
	}
	return nil
}

// describe says what a reply of kind e holds.
func (e expect) describe() string {
	switch e {
	case expectResult:
		return `a "result" without "isError":true`
	case expectToolError:
		return `a "result" with "isError":true`
	case expectError:
		return `an "error" object`
	}
	return "unknown kind " + string(e)
}

// parseExpect reads -expect.
func parseExpect(s string) (expect, error) {
	switch e := expect(s); e {
	case expectResult, expectToolError, expectError:
		return e, nil
	}
	return "", fmt.Errorf("-expect %q: want result, tool-error or error", s)
}
