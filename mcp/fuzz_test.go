package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/mcptest"
)

// The fuzz targets drive the server through its public entry points
// (Serve on a stream, the HTTP handler) and check what any input must give:
// valid JSON-RPC responses, at most one per line, and no handler that runs
// with what its schema or template should have refused. Their seeds are the
// requests the chapters' scripts pin; go test runs the seeds and the corpus
// in testdata/fuzz, go test -fuzz explores further.

// pinnedRequests returns the request files of the chapters' scripts
// (testdata/scripts/*/*.txtar, files req/*), each a line or a session.
func pinnedRequests(f *testing.F) [][]byte {
	reqs, err := exchange.PinnedRequests("../testdata/scripts")
	if err != nil {
		f.Fatal(err)
	}
	return reqs
}

// pinnedLines returns each line of the pinned requests.
func pinnedLines(f *testing.F) [][]byte {
	var lines [][]byte
	for _, req := range pinnedRequests(f) {
		for line := range bytes.Lines(req) {
			lines = append(lines, bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	return lines
}

// fuzzArgs are the arguments of the fuzz server's tool "shelve": a required
// string, optional numbers, a list and a nested object.
type fuzzArgs struct {
	Title string   `json:"title"`
	Count int      `json:"count,omitempty"`
	Price *float64 `json:"price,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Shelf *struct {
		Row  int    `json:"row"`
		Name string `json:"name,omitempty"`
	} `json:"shelf,omitempty"`
	InStock bool `json:"inStock,omitempty"`
}

// fuzzTemplates are the fuzz server's resource templates.
var fuzzTemplates = []string{"books://{title}", "shelves://{shelf}/books/{title}", "files://{+path}"}

// fuzzServer is a server with the chapters' kinds of tools and resources,
// logging nowhere. Its tool "shelve" and its templates record what their
// handlers are given in calls.
type fuzzServer struct {
	*Server
	mu    sync.Mutex
	args  []fuzzArgs     // what shelve ran with
	reads []templateRead // what the template handlers ran with
}

// templateRead is a read that reached a template's handler.
type templateRead struct {
	template int
	req      ResourceRequest
}

func newFuzzServer() *fuzzServer {
	fs := &fuzzServer{Server: NewServer("fuzz", "1.0.0", &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})}
	AddTool(fs.Server, Tool{Name: "get_author"}, func(ctx context.Context, args struct {
		Title string `json:"title"`
	}) (string, error) {
		if args.Title != "Dune" {
			return "", fmt.Errorf("No book titled '%s' in the catalog.", args.Title)
		}
		return "Frank Herbert", nil
	})
	AddTool(fs.Server, Tool{Name: "shelve"}, func(ctx context.Context, args fuzzArgs) (string, error) {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		fs.args = append(fs.args, args)
		return "shelved", nil
	})
	AddTool(fs.Server, Tool{Name: "refuse"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", &Error{Code: CodeInvalidParams, Message: "refused", Data: map[string]string{"why": "fuzz"}}
	})
	fs.AddResource(Resource{URI: "books://catalog", Name: "catalog"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		return "Dune", nil
	})
	for i, tmpl := range fuzzTemplates {
		fs.AddResourceTemplate(ResourceTemplate{URITemplate: tmpl, Name: fmt.Sprint("t", i)}, func(ctx context.Context, req *ResourceRequest) (string, error) {
			fs.mu.Lock()
			defer fs.mu.Unlock()
			fs.reads = append(fs.reads, templateRead{i, *req})
			if req.Params["title"] == "Nothing" {
				return "", ResourceNotFound("No book titled '%s' in the catalog.", req.Params["title"])
			}
			return "found", nil
		})
	}
	return fs
}

// serveLines serves input as one stream and returns the response lines.
func (fs *fuzzServer) serveLines(t *testing.T, input []byte) [][]byte {
	var out bytes.Buffer
	if err := fs.Serve(context.Background(), bytes.NewReader(input), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return bytes.SplitAfter(out.Bytes(), []byte("\n"))[:bytes.Count(out.Bytes(), []byte("\n"))]
}

// wireResponse is a response as checkResponse reads it.
type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// checkResponse fails unless line is one valid JSON value (valid UTF-8
// too) ending in a newline: a JSON-RPC 2.0 response with an id and a result
// or an error, or, when batch, an array of them. It returns the responses.
func checkResponse(t *testing.T, line []byte, batch bool) []wireResponse {
	t.Helper()
	body, ok := bytes.CutSuffix(line, []byte("\n"))
	if !ok || bytes.ContainsRune(body, '\n') || !jsontext.Value(body).IsValid() {
		t.Fatalf("response %q: not one line of valid JSON", line)
	}
	var rs []wireResponse
	if batch && body[0] == '[' {
		if err := json.Unmarshal(body, &rs); err != nil || len(rs) == 0 {
			t.Fatalf("batch response %s: %v", body, err)
		}
	} else {
		var r wireResponse
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("response %s: %v", body, err)
		}
		rs = []wireResponse{r}
	}
	for _, r := range rs {
		if r.JSONRPC != "2.0" || r.ID == nil || (r.Result == nil) == (r.Error == nil) {
			t.Fatalf("response %s: want jsonrpc 2.0, an id, and a result or an error", body)
		}
		if r.Error != nil && (r.Error.Message == "" || r.Error.Code == 0) {
			t.Fatalf("response %s: an error without code or message", body)
		}
	}
	return rs
}

// FuzzServeLines: any input on a stream is answered with valid JSON-RPC
// responses, at most one per line, and the server goes on.
func FuzzServeLines(f *testing.F) {
	for _, req := range pinnedRequests(f) {
		f.Add(req)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		fs := newFuzzServer()
		replies := fs.serveLines(t, input)
		if lines := bytes.Count(input, []byte("\n")) + 1; len(replies) > lines {
			t.Fatalf("%d responses to %d lines", len(replies), lines)
		}
		for _, line := range replies {
			checkResponse(t, line, true)
		}
		// The stream still serves a request after the input.
		after := fs.serveLines(t, []byte(mcptest.Request(`"after"`, "tools/list", "")))
		if len(after) != 1 || checkResponse(t, after[0], false)[0].Result == nil {
			t.Fatalf("after the input: %q, want one result", after)
		}
	})
}

// FuzzHTTP: any POST, with any protocol headers, is answered with a status
// the transport defines and, unless 202, a valid JSON-RPC response.
func FuzzHTTP(f *testing.F) {
	for _, line := range pinnedLines(f) {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
				Meta struct {
					Version string `json:"io.modelcontextprotocol/protocolVersion"`
				} `json:"_meta"`
			} `json:"params"`
		}
		json.Unmarshal(line, &m)
		f.Add(line, m.Params.Meta.Version, m.Method, m.Params.Name+m.Params.URI)
	}
	statuses := map[int]bool{200: true, 202: true, 400: true, 404: true, 413: true}
	f.Fuzz(func(t *testing.T, body []byte, version, method, name string) {
		h := newFuzzServer().HTTPHandler(nil)
		req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		mcptest.SetPostHeaders(req.Header, map[string]string{"Mcp-Protocol-Version": version, "Mcp-Method": method, "Mcp-Name": name})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !statuses[rec.Code] {
			t.Fatalf("status %d, body %q", rec.Code, rec.Body)
		}
		if rec.Code == http.StatusAccepted {
			if rec.Body.Len() > 0 {
				t.Fatalf("202 with body %q", rec.Body)
			}
			return
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("status %d, Content-Type %q", rec.Code, ct)
		}
		checkResponse(t, rec.Body.Bytes(), false)
	})
}

// readLine is a resources/read request line for uri in the modern era.
func readLine(uri string) []byte {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "resources/read",
		"params": map[string]any{"uri": uri, "_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion": ModernVersion, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}}})
	return line
}

// read reads uri from a new fuzz server and returns the response and the
// template reads it caused. The uri it returns is uri as the server got it
// (encoding/json writes invalid UTF-8 as U+FFFD).
func readURI(t *testing.T, uri string) (wireResponse, []templateRead, string) {
	fs := newFuzzServer()
	line := readLine(uri)
	var sent struct {
		Params struct{ URI string } `json:"params"`
	}
	json.Unmarshal(line, &sent)
	replies := fs.serveLines(t, append(line, '\n'))
	if len(replies) != 1 {
		t.Fatalf("read %q: %d responses", uri, len(replies))
	}
	return checkResponse(t, replies[0], false)[0], fs.reads, sent.Params.URI
}

// FuzzURITemplate: a URI made by expanding a template reaches that
// template's handler with the values it was made from; any other URI
// reaches at most one handler, with values that make a URI the template
// matches alike, or is answered "Unknown resource" with the URI in data.
func FuzzURITemplate(f *testing.F) {
	for _, line := range pinnedLines(f) {
		var m struct {
			Params struct{ URI string } `json:"params"`
		}
		if json.Unmarshal(line, &m) == nil && m.Params.URI != "" {
			f.Add(m.Params.URI, uint8(0), "Dune", "Nothing")
		}
	}
	f.Add("shelves://sci-fi/books/Dune", uint8(1), "sci fi/2", "Dune?")
	f.Add("files://a/b%2Fc", uint8(2), "a/b c/%", "")
	f.Fuzz(func(t *testing.T, uri string, which uint8, a, b string) {
		// The URI as given.
		resp, reads, sent := readURI(t, uri)
		switch {
		case len(reads) > 1:
			t.Fatalf("read %q: %d handlers ran", sent, len(reads))
		case len(reads) == 1:
			r := reads[0]
			if r.req.URI != sent {
				t.Fatalf("read %q: the handler got URI %q", sent, r.req.URI)
			}
			again, err := expand(fuzzTemplates[r.template], r.req.Params)
			if err != nil {
				t.Fatalf("read %q matched %s with %q, which do not expand: %v", sent, fuzzTemplates[r.template], r.req.Params, err)
			}
			if _, rereads, _ := readURI(t, again); len(rereads) != 1 || !reflect.DeepEqual(rereads[0].req.Params, r.req.Params) {
				t.Fatalf("read %q matched %s with %q; expanded again, %q matches with %v", sent, fuzzTemplates[r.template], r.req.Params, again, rereads)
			}
		case sent == "books://catalog":
		default:
			if resp.Error == nil || resp.Error.Code != CodeInvalidParams {
				t.Fatalf("read %q: no handler ran, response %+v", sent, resp)
			}
			var data struct {
				URI *string `json:"uri"`
			}
			if json.Unmarshal(resp.Error.Data, &data) != nil || data.URI == nil || *data.URI != sent {
				t.Fatalf("read %q: error data %s, want the URI", sent, resp.Error.Data)
			}
		}

		// A URI expanded from the template's values.
		i := int(which) % len(fuzzTemplates)
		vars := []string{"title"}
		switch i {
		case 1:
			vars = []string{"shelf", "title"}
		case 2:
			vars = []string{"path"}
		}
		want := map[string]string{vars[0]: a}
		if len(vars) > 1 {
			want[vars[1]] = b
		}
		for _, v := range want {
			if v == "" || !jsontext.Value(fmt.Sprintf("%q", v)).IsValid() || strings.ContainsAny(v, "\x7f") {
				return // an empty value expands to nothing; the URI must survive JSON
			}
		}
		made, err := expand(fuzzTemplates[i], want)
		if err != nil || made == "books://catalog" {
			return
		}
		if i == 2 && strings.Contains(made, "%") && strings.Contains(a, "%") {
			return // {+path} keeps "%XX" as written: "%41" and "A" are one URI
		}
		_, reads, _ = readURI(t, made)
		if len(reads) != 1 || reads[0].template != i || !reflect.DeepEqual(reads[0].req.Params, want) {
			t.Fatalf("%s with %q is %q, which reached %+v", fuzzTemplates[i], want, made, reads)
		}
	})
}

// expand expands tmpl, one of fuzzTemplates, with vals as RFC 6570 says:
// each byte of a value's UTF-8 that is not unreserved is percent-encoded,
// and in a reserved expansion ({+name}) the reserved characters are kept.
// (uritemplate's Expand encodes some characters wrongly: "ϑ" as "%03%D1".)
func expand(tmpl string, vals map[string]string) (string, error) {
	var b strings.Builder
	for rest := tmpl; rest != ""; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			break
		}
		end := strings.IndexByte(rest, '}')
		b.WriteString(rest[:open])
		name, reserved := strings.CutPrefix(rest[open+1:end], "+")
		v, ok := vals[name]
		if !ok {
			return "", fmt.Errorf("no value for %s", name)
		}
		for i := 0; i < len(v); i++ {
			c := v[i]
			if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 ||
				reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0 {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		rest = rest[end+1:]
	}
	return b.String(), nil
}

// FuzzToolArguments: whatever the arguments, a tools/call gets a result or
// an invalid-params error, never an internal error; and the handler runs
// only with arguments that decode strictly (no unknown field, every type
// right) into its argument type, as what it got.
func FuzzToolArguments(f *testing.F) {
	for _, line := range pinnedLines(f) {
		var m struct {
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) == nil && m.Params.Arguments != nil {
			f.Add(string(m.Params.Arguments))
		}
	}
	f.Add(`{"title":"Dune","count":3,"price":9.5,"tags":["a","b"],"shelf":{"row":2,"name":"x"},"inStock":true}`)
	f.Add(`{"title":"Dune","count":1e2}`)
	f.Add(`{"title":"Dune","shelf":{"row":1.5}}`)
	f.Add(`{"title":null}`)
	f.Fuzz(func(t *testing.T, args string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(args)) != nil {
			return
		}
		line := mcptest.ToolCall("1", "shelve", compact.String()) + "\n"
		fs := newFuzzServer()
		replies := fs.serveLines(t, []byte(line))
		if len(replies) != 1 {
			t.Fatalf("%d responses", len(replies))
		}
		resp := checkResponse(t, replies[0], false)[0]
		if resp.Error != nil {
			if resp.Error.Code != CodeInvalidParams || len(fs.args) > 0 {
				t.Fatalf("arguments %s: error %+v", args, resp.Error)
			}
			return
		}
		var res CallToolResult
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			if len(fs.args) > 0 || len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].Text, "Error executing tool shelve: ") {
				t.Fatalf("arguments %s: tool error %+v after %d runs", args, res, len(fs.args))
			}
			return
		}
		if len(fs.args) != 1 {
			t.Fatalf("arguments %s: a result, %d runs", args, len(fs.args))
		}
		var strict fuzzArgs
		dec := json.NewDecoder(strings.NewReader(args))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&strict); err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("arguments %s reached the handler, but do not decode strictly: %v", args, err)
		}
		if !reflect.DeepEqual(strict, fs.args[0]) {
			t.Fatalf("arguments %s: the handler got %+v, strictly decoded %+v", args, fs.args[0], strict)
		}
	})
}
