package check

import "encoding/json"

// Kind is what a verdict says of an answer.
type Kind int

// The kinds of verdict, from best to worst; NotChecked stands apart.
const (
	AsGuide       Kind = iota // the answer is the guide's
	Allowed                   // another answer the spec allows (Verdict.Detail says which)
	AgainstShould             // against a SHOULD of the spec (Verdict.Quote); does not fail
	AgainstMust               // against a MUST of the spec (Verdict.Quote); fails
	Leaks                     // the answer shows the server's internals (Verdict.Detail quotes them); fails
	NotChecked                // nothing to send, or an answer it could not judge (Verdict.Detail says why)
)

var kindNames = [...]string{"as the guide", "another answer the spec allows", "against a SHOULD", "against a MUST", "leaks internals", "not checked"}

// String returns the kind as mcpc check prints it: "as the guide".
func (k Kind) String() string { return kindNames[k] }

// MarshalText returns k's String.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Fails reports whether a verdict of kind k fails a check.
func (k Kind) Fails() bool { return k == AgainstMust || k == Leaks }

// Quote is a sentence of a specification, with where it stands.
type Quote struct {
	Text   string `json:"text"`
	Source string `json:"source"` // "MCP 2025-11-25, server/tools"
}

// Verdict is the judgment of one answer to one lesson.
type Verdict struct {
	Lesson  string `json:"lesson"`           // the lesson's id: "unknown-tool"
	Target  string `json:"target,omitempty"` // what it aimed at: a tool, a template, a variant
	Version string `json:"version"`          // the protocol version the request was sent at
	Kind    Kind   `json:"verdict"`
	Detail  string `json:"detail,omitempty"` // which other answer, what leaked, why not checked
	Quote   *Quote `json:"quote,omitempty"`  // the spec's sentence an answer is against
	Row     string `json:"row,omitempty"`    // the guide's row that explains the lesson: its anchor on the page of errors
	Request string `json:"request"`          // what was sent, in one short form
	Reply   string `json:"reply"`            // what came back, in one short form

	// Guide and SDK are the addresses of the guide's section that explains
	// the lesson and of its lesson on Your SDK, once [Report.Link] set them.
	Guide string `json:"guide,omitempty"`
	SDK   string `json:"sdk,omitempty"`
}

// Answer is what a server did with one probe, as the check saw it.
type Answer struct {
	Version string // the protocol version the probe was sent at
	HTTP    bool   // over Streamable HTTP, not stdio
	Status  int    // the HTTP status; 0 over stdio

	// Reply is the JSON-RPC reply the probe got (a batch's array), nil
	// when none came. Silent means that none came although the server
	// answered a request sent after it; Hung that it answered neither
	// within the check's bound, Wait.
	Reply  json.RawMessage
	Silent bool
	Hung   bool
	Wait   string

	// Next is true when the request sent after the probe was answered:
	// what the lessons of a malformed line and of a cancellation are
	// about.
	Next bool

	// Exit says how the server ended while the probe was pending: its
	// exit status and last lines of stderr; "" when it did not.
	Exit string

	// Overlong is true when a line or body came longer than the check
	// reads (its start is in Reply, cut).
	Overlong bool

	// Late holds the ids of the replies that came, while the probe was
	// pending, to requests sent before it that the check gave up on: set
	// aside, they answer nothing.
	Late []string

	// Stray holds what the server wrote to stdout that is not a JSON-RPC
	// message.
	Stray []string

	// Received is every text the server sent while the probe was pending,
	// for the leak scan; Sent are the strings the probe itself sent, which
	// a server may echo without leaking anything.
	Received []string
	Sent     []string
}
