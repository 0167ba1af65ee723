package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpbookshop/guide/internal/jsonwire"
	"github.com/mcpbookshop/guide/mcp/internal/schema"
)

// Tool describes a tool to the client.
type Tool struct {
	// Name identifies the tool: 1 to 128 characters of A-Z, a-z, 0-9, _, -
	// and ".".
	Name string
	// Title is an optional human-readable name.
	Title string
	// Description tells the model what the tool does.
	Description string
}

// Content is one block of content in a tool result. This core produces text
// blocks; a client may receive other types, whose other fields it ignores.
type Content struct {
	// Type is the kind of block, "text" for text.
	Type string `json:"type"`
	// Text is the text of a text block.
	Text string `json:"text"`
}

// TextContent returns a text content block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// CallToolResult is the result of tools/call. A handler may return one to
// control the result fully; package mcp/client's CallTool returns one.
type CallToolResult struct {
	// Content is what the model reads.
	Content []Content `json:"content"`
	// StructuredContent is the result as JSON, conforming to the tool's
	// output schema. It is never set on an error result.
	StructuredContent any `json:"structuredContent,omitempty"`
	// IsError reports a tool error: the call ran and failed, and Content
	// says why.
	IsError bool `json:"isError,omitempty"`
}

// ToolInfo describes a tool as tools/list reports it: what the server sends
// and what package mcp/client's ListTools returns.
type ToolInfo struct {
	// Name identifies the tool in tools/call.
	Name string `json:"name"`
	// Title is an optional human-readable name.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema the arguments must satisfy.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema, if present, is the JSON Schema of the structured result.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// registeredTool is a tool with its schemas resolved and its handler bound.
type registeredTool struct {
	name   string
	wire   func() *ToolInfo // the tool as tools/list sends it, made on first use
	schema *schema.Checker  // validates arguments before call runs
	output *schema.Checker  // validates structured results; nil for none
	call   func(ctx context.Context, args json.RawMessage, scanned jsonwire.Value) (*CallToolResult, error)
}

// maxToolName is the longest tool name, in characters.
const maxToolName = 128

// toolNameChars are the characters a tool name may use.
const toolNameChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-."

// validToolName reports whether name is 1 to 128 characters of A-Z, a-z,
// 0-9, _, - and ".". It uses no regular expression, which every program
// would compile at its start (TestValidToolName).
func validToolName(name string) bool {
	return len(name) >= 1 && len(name) <= maxToolName && strings.Trim(name, toolNameChars) == ""
}

// AddTool registers a tool whose handler takes arguments of type In (a struct
// or a map) and returns a value of type Out.
//
// The input schema is inferred from In: field names from json tags, field
// descriptions from jsonschema tags, bounds from mcp tags
// (`mcp:"minimum=1,maximum=50"`: minimum, maximum, minLength, maxLength,
// minItems and maxItems), fields without omitempty or omitzero required,
// unknown properties rejected. Arguments are checked against it before h
// runs; a call that fails the check is answered with a tool error naming
// each field and the problem (the first ten, in at most 1 KiB), and h
// never sees it.
//
// If Out is string, a result is one text block. If Out is *[CallToolResult],
// it is sent as it is. Otherwise the output schema is inferred from Out, mcp
// tags included, and a result is sent both as structuredContent and as its
// JSON in a text block. A result that does not fit the output schema is a
// failure of the server, not of the call: the model reads the bare tool
// error "Error executing tool <name>", and the log says what does not fit.
//
// A tool fails in one of three ways, by what h returns:
//
//   - an ordinary error: a tool error, a result with isError set and the
//     text "Error executing tool <name>: <err>", which the model reads
//     and can act on (a *[ToolError] adds structured content for
//     programs);
//   - an *[Error] anywhere in its chain: the JSON-RPC error instead, for
//     the host;
//   - an error marked with [Internal], or a panic: the bare tool error
//     "Error executing tool <name>", with the error or the panic in the
//     log at ERROR, for whoever runs the server.
//
// AddTool panics if the name is invalid or taken, if In is not a struct or
// map type, or if a schema cannot be inferred or an mcp tag read: all are
// programming errors, found at startup.
func AddTool[In, Out any](s *Server, t Tool, h func(ctx context.Context, args In) (Out, error)) {
	if !validToolName(t.Name) {
		panic(fmt.Sprintf("mcp: invalid tool name %q", t.Name))
	}
	if s.byName[t.Name] != nil {
		panic(fmt.Sprintf("mcp: tool %q registered twice", t.Name))
	}
	in, err := schema.For[In]()
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %q: cannot infer input schema: %v", t.Name, err))
	}
	if in.Type != "object" {
		panic(fmt.Sprintf("mcp: tool %q: arguments must be a struct or map type: got %v", t.Name, reflect.TypeFor[In]()))
	}
	var out *jsonschema.Schema // the output schema, if results are structured
	switch any((*Out)(nil)).(type) {
	case *string, **CallToolResult:
	default:
		if out, err = schema.For[Out](); err != nil {
			panic(fmt.Sprintf("mcp: tool %q: cannot infer output schema: %v", t.Name, err))
		}
		if out.Type != "object" {
			out = nil
		}
	}
	rt := &registeredTool{name: t.Name, schema: schema.Compile(in), output: schema.Compile(out)}
	// The first marshalling of a schema is slow (encoding/json builds its
	// encoders for jsonschema.Schema): the first tools/list pays for it,
	// not every program's startup.
	rt.wire = sync.OnceValue(func() *ToolInfo {
		w := &ToolInfo{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: mustMarshal(in)}
		if out != nil {
			w.OutputSchema = mustMarshal(out)
		}
		return w
	})
	result := resultFunc[Out](rt.output)
	dec := jsonwire.NewDecoder[In]()
	rt.call = func(ctx context.Context, raw json.RawMessage, scanned jsonwire.Value) (*CallToolResult, error) {
		var args In
		if err := dec.Decode(scanned, raw, &args); err != nil {
			return nil, &ArgumentsError{describeDecodeError(t.Name, err)}
		}
		out, err := h(ctx, args)
		if err != nil {
			return nil, err
		}
		return result(out)
	}
	s.tools = append(s.tools, rt)
	s.byName[t.Name] = rt
}

// describeDecodeError says which argument of the tool could not be
// decoded. For a value its Go field cannot hold, that is the text of row
// errArgumentGoType after "Error executing tool <name>: ", which the tool
// error of invalid arguments puts back.
func describeDecodeError(tool string, err error) string {
	if typ := jsonwire.TypeError(err); typ != nil && typ.Field != "" {
		text := errArgumentGoType.text(tool, typ.Field, typ.Value)
		return strings.TrimPrefix(text, errInvalidArguments.text(tool, ""))
	}
	return err.Error()
}

// resultFunc returns the function that turns a handler's value into a
// result, checking a structured one against output.
func resultFunc[Out any](output *schema.Checker) func(Out) (*CallToolResult, error) {
	switch any((*Out)(nil)).(type) {
	case *string:
		return func(out Out) (*CallToolResult, error) {
			return &CallToolResult{Content: []Content{TextContent(any(out).(string))}}, nil
		}
	case **CallToolResult:
		return func(out Out) (*CallToolResult, error) {
			if r := any(out).(*CallToolResult); r != nil {
				return r, nil
			}
			return &CallToolResult{Content: []Content{}}, nil
		}
	}
	kind := reflect.TypeFor[Out]().Kind()
	structured := kind == reflect.Struct || kind == reflect.Map
	return func(out Out) (*CallToolResult, error) {
		raw, err := json.Marshal(out)
		if err != nil {
			return nil, Internal(fmt.Errorf("encoding the result: %w", err))
		}
		if problems := checkOutput(output, raw); problems != "" {
			return nil, &outputError{problems}
		}
		r := &CallToolResult{Content: []Content{TextContent(string(raw))}}
		if structured {
			r.StructuredContent = json.RawMessage(raw)
		}
		return r, nil
	}
}

// mustMarshal returns the JSON of v, which cannot fail to marshal.
func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// listToolsResult is the result of tools/list.
type listToolsResult struct {
	Tools []*ToolInfo `json:"tools"`
	resultMeta
	cacheable
}

// listTools serves tools/list.
func (s *Server) listTools(r *request) any {
	res := &listToolsResult{Tools: make([]*ToolInfo, len(s.tools)), resultMeta: s.meta(r), cacheable: s.cache(r)}
	for i, t := range s.tools {
		res.Tools[i] = t.wire()
	}
	return res
}

// callToolWire is a CallToolResult with its era's decorations.
type callToolWire struct {
	*CallToolResult
	resultMeta
}

// emptyObject, scanned as emptyArgs, stands in for absent or null
// arguments.
var (
	emptyObject  = json.RawMessage("{}")
	emptyArgs, _ = jsonwire.ScanValue(emptyObject)
)

// callTool serves tools/call: the errors of finding the tool and reading its
// arguments are protocol errors; everything after is the tool's result.
func (s *Server) callTool(ctx context.Context, r *request) (any, *Error) {
	p := r.params
	if p.Name == nil {
		return nil, errNoToolName.error()
	}
	t := s.byName[*p.Name]
	if t == nil {
		return nil, errUnknownTool.error(*p.Name)
	}
	args, scanned := p.Arguments, p.Args
	switch {
	case len(args) == 0 || string(args) == "null":
		args, scanned = emptyObject, emptyArgs
	case args[0] != '{':
		return nil, errArgumentsNotObject.error()
	}
	res, perr := s.runTool(ctx, r, t, args, scanned)
	if perr != nil {
		return nil, perr
	}
	return &callToolWire{res, s.meta(r)}, nil
}

// runTool validates args (scanned, if the line was) and runs the tool's
// handler for r, turning its error or panic into a tool error, or its
// *Error into a protocol error.
func (s *Server) runTool(
	ctx context.Context,
	r *request,
	t *registeredTool,
	args json.RawMessage,
	scanned jsonwire.Value,
) (res *CallToolResult, perr *Error) {
	name := t.name
	defer func() {
		if v := recover(); v != nil {
			res, perr = s.toolPanic(ctx, r, name, &PanicError{Value: v, Stack: debug.Stack()}), nil
		}
	}()
	if msg := t.schema.Check(args, scanned); msg != "" {
		return s.toolError(ctx, r, errInvalidArguments, name, &ArgumentsError{msg}), nil
	}
	res, err := t.call(ctx, args, scanned)
	if err == nil {
		return res, nil
	}
	r.gaveUp = errors.Is(err, context.Canceled)
	if perr, ok := errors.AsType[*Error](err); ok {
		return nil, perr
	}
	switch err.(type) {
	case *ArgumentsError:
		return s.toolError(ctx, r, errInvalidArguments, name, err), nil
	case *outputError:
		return s.bareToolError(ctx, r, errOutputInvalid, name, err), nil
	}
	if _, ok := errors.AsType[*InternalError](err); ok {
		return s.bareToolError(ctx, r, errToolInternal, name, err), nil
	}
	if te, ok := errors.AsType[*ToolError](err); ok && te.Structured != nil {
		return s.structuredToolError(ctx, r, t, err, te.Structured), nil
	}
	return s.toolError(ctx, r, errToolError, name, err), nil
}

// structuredToolError returns the tool error err, which carries
// structured content: with it, when it fits the tool's output schema;
// otherwise with its text alone, logged at ERROR with why the content was
// dropped (a client that checks structuredContent even on an error would
// hide the text behind its own error).
func (s *Server) structuredToolError(ctx context.Context, r *request, t *registeredTool, err error, structured any) *CallToolResult {
	var dropped string
	raw, merr := json.Marshal(structured)
	if merr != nil {
		dropped = "the structured content cannot be encoded: " + merr.Error()
	} else if problems := checkOutput(t.output, raw); problems != "" {
		dropped = "the structured content does not fit the output schema: " + problems
	} else {
		res := s.toolError(ctx, r, errToolError, t.name, err)
		res.StructuredContent = json.RawMessage(raw)
		return res
	}
	return s.toolError(ctx, r, errErrorContentInvalid, t.name, err, slog.String("dropped", dropped))
}

// checkOutput returns what does not fit output, a tool's output schema,
// in raw, the JSON of a structured result or of a tool error's
// structured content; "" when it fits or there is no schema.
func checkOutput(output *schema.Checker, raw []byte) string {
	if output == nil {
		return ""
	}
	v, _ := jsonwire.ScanValue(raw)
	return output.Check(raw, v)
}

// outputError is a structured result that does not fit its tool's output
// schema: the server's failure, which the model does not read.
type outputError struct {
	problems string
}

// Error says what does not fit.
func (e *outputError) Error() string {
	return "the result does not fit the output schema: " + e.problems
}

// toolError logs the tool error err of r, of row k, whose text the model
// reads, with attrs; keeps it for r's Outcome; and returns the result
// that reports it.
func (s *Server) toolError(
	ctx context.Context,
	r *request,
	k textRow2,
	name string,
	err error,
	attrs ...slog.Attr,
) *CallToolResult {
	msg := err.Error()
	a := [3]slog.Attr{slog.String("tool", name), slog.String("error", msg)} // not allocated
	n := 2 + copy(a[2:], attrs)
	return s.reportToolError(ctx, r, k.errKind, toolErrorResult(k.text(name, msg)), err, "tool error", a[:n])
}

// bareToolError is toolError for a failure of row k whose text the model
// does not read: it gets the bare tool error, and the log gets err.
func (s *Server) bareToolError(ctx context.Context, r *request, k textRow1, name string, err error) *CallToolResult {
	a := [3]slog.Attr{slog.String("tool", name), slog.String("id", string(r.id)), slog.String("error", err.Error())}
	return s.reportToolError(ctx, r, k.errKind, toolErrorResult(k.text(name)), err, "tool failed", a[:])
}

// reportToolError logs msg with attrs at the level of row k, flushing the
// log for an error the server made, keeps err for r's Outcome, and
// returns res. A request whose context is done gets no result (see
// respond), so nothing is logged for it here.
func (s *Server) reportToolError(
	ctx context.Context,
	r *request,
	k errKind,
	res *CallToolResult,
	err error,
	msg string,
	attrs []slog.Attr,
) *CallToolResult {
	if r.dropsReply(ctx) {
		return res
	}
	level := k.row().level
	s.log.LogAttrs(ctx, level, msg, attrs...)
	if level >= slog.LevelError {
		s.flushLog()
	}
	if r.obs != nil {
		r.toolFailed(k, err)
	}
	return res
}

// toolErrorResult returns the tool error result whose one text block is
// text.
func toolErrorResult(text string) *CallToolResult {
	return &CallToolResult{Content: []Content{TextContent(text)}, IsError: true}
}
