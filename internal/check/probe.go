package check

import "github.com/google/jsonschema-go/jsonschema"

// The lessons, by id: the anchors of Your SDK's sections where it has one.
const (
	LessonUnknownTool        = "unknown-tool"
	LessonValidation         = "validation"
	LessonMalformedLine      = "malformed-line"
	LessonUnknownMethod      = "unknown-method"
	LessonInvalidRequest     = "invalid-request"
	LessonBatch              = "batch"
	LessonUnsupportedVersion = "unsupported-version"
	LessonResourceNotFound   = "resource-not-found"
	LessonCancellation       = "cancellation"
	LessonInternals          = "internals"
	LessonStdout             = "stdout"
	LessonLargeArgument      = "large-argument"
	LessonCall               = "call"
)

// Probe is one request of a lesson, and what judging its answer needs.
type Probe struct {
	Lesson string // the lesson's id
	Target string // what it aims at: "tool get_author: title missing"
	Row    string // the guide's row that explains it: the anchor of its section on the page of errors

	Version string   // the protocol version it is sent at
	Method  string   // the JSON-RPC method, for HTTP's Mcp-Method header; "" for a line that has none
	Name    string   // params.name or params.uri, for HTTP's Mcp-Name header
	Lines   [][]byte // the messages sent, in order: the probe first, then a cancellation if any
	ID      string   // the probe's id as sent (compact JSON); "" when it has none that can be read
	Inner   []string // a batch's requests' ids, which a reply to it may carry
	Short   string   // what is sent, in one short form

	Prop     string             // validation: the property its arguments break
	Output   *jsonschema.Schema // call: the tool's output schema, if it has one
	Settle   bool               // its reply may never come: send a request after it and wait for that one
	Fresh    bool               // needs a connection of its own (an initialize)
	HTTPBody bool               // over HTTP, sent as a body with no JSON-RPC headers (it is not a request)
	Close    bool               // over modern HTTP, the request stream is closed once sent (a cancellation)
}
