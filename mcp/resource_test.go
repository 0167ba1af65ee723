package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// newShelfServer returns a server with a static resource, shelf://index,
// and a template, shelf://{name}, whose handler fails as the name says.
func newShelfServer() (*Server, *logBuffer) {
	s, logs := newTestServer(nil)
	s.AddResource(Resource{URI: "shelf://index", Name: "index"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		return "A, B", nil
	})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "shelf://{name}", Name: "shelf"}, func(ctx context.Context, req *ResourceRequest) (string, error) {
		switch name := req.Params["name"]; name {
		case "panic":
			panic("the shelf collapsed")
		case "broken":
			return "", errors.New("database password rejected")
		case "missing":
			return "", fmt.Errorf("reading: %w", ResourceNotFound("No shelf named '%s'.", name))
		case "forbidden":
			return "", fmt.Errorf("reading: %w", &Error{Code: -1, Message: "Forbidden shelf"})
		default:
			return "Shelf " + name, nil
		}
	})
	return s, logs
}

func TestResourceRead(t *testing.T) {
	s, _ := newShelfServer()
	c := connect(t, s)
	for uri, want := range map[string]string{
		"shelf://index":      `"contents":[{"uri":"shelf://index","mimeType":"text/plain","text":"A, B"}]`,
		"shelf://B":          `"contents":[{"uri":"shelf://B","mimeType":"text/plain","text":"Shelf B"}]`,
		"shelf://top%20left": `"text":"Shelf top left"`, // template variables are percent-decoded
	} {
		if line := c.call(mcptest.ReadCall("1", uri)); !strings.Contains(line, want) {
			t.Errorf("read %s: %s, want %s", uri, line, want)
		}
	}
	list := c.call(mcptest.Request("2", "resources/list", ""))
	if want := `"resources":[{"uri":"shelf://index","name":"index","mimeType":"text/plain"}]`; !strings.Contains(list, want) {
		t.Errorf("resources/list: %s, want %s", list, want)
	}
	c.close()
}

func TestResourceErrors(t *testing.T) {
	for _, tt := range []struct {
		uri, want, logged string
	}{
		{"shelf://missing", `{"code":-32602,"message":"No shelf named 'missing'.","data":{"uri":"shelf://missing"}}`, "shelf://missing"},
		{"shelf://forbidden", `{"code":-1,"message":"Forbidden shelf"}`, "Forbidden shelf"},
		{"films://Dune", `{"code":-32602,"message":"Unknown resource: films://Dune","data":{"uri":"films://Dune"}}`, "films://Dune"},
		{"shelf://broken", `{"code":-32603,"message":"Internal error","data":{"uri":"shelf://broken"}}`, "database password rejected"},
		{"shelf://panic", `{"code":-32603,"message":"Internal error","data":{"uri":"shelf://panic"}}`, "the shelf collapsed"},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			s, logs := newShelfServer()
			c := connect(t, s)
			line := c.call(mcptest.ReadCall("1", tt.uri))
			if want := `{"jsonrpc":"2.0","id":1,"error":` + tt.want + `}`; line != want {
				t.Errorf("read %s:\n got %s\nwant %s", tt.uri, line, want)
			}
			if strings.Contains(line, "password") {
				t.Errorf("the handler's error leaked to the client: %s", line)
			}
			lines := logs.lines()
			if len(lines) != 1 || !strings.Contains(lines[0], `"msg":"protocol error"`) || !strings.Contains(lines[0], tt.logged) {
				t.Fatalf("log %q, want one protocol error line saying %q", lines, tt.logged)
			}
			if tt.uri == "shelf://panic" && !strings.Contains(lines[0], "goroutine") {
				t.Errorf("no stack logged for the panic: %s", lines[0])
			}
			if r := mcptest.DecodeReply(t, c.call(mcptest.ReadCall("2", "shelf://B"))); r.Error != nil {
				t.Errorf("read after the error: %v", r.Error)
			}
			c.close()
		})
	}
}

func TestResourceMissingURI(t *testing.T) {
	s, _ := newShelfServer()
	c := connect(t, s)
	e := wantError(t, c.call(mcptest.Request("1", "resources/read", "")), "1", CodeInvalidParams)
	if data, _ := json.Marshal(e.Data); string(data) != `"\"params.uri\" is missing"` {
		t.Errorf("data %s, want it to name params.uri", data)
	}
	c.close()
}

// A raw non-ASCII character in a read URI (an IRI) matches a template as its
// percent-encoded form would, and the handler gets the decoded value.
func TestReadResourceIRI(t *testing.T) {
	s := NewServer("t", "1", &Options{Logger: slog.New(slog.DiscardHandler)})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: "books://{title}", Name: "book"},
		func(ctx context.Context, req *ResourceRequest) (string, error) {
			return req.Params["title"], nil
		})
	for _, uri := range []string{"books://Dün", "books://D%C3%BCn"} {
		res, perr := s.readResource(context.Background(), &request{params: &params{URI: &uri}})
		if perr != nil {
			t.Fatalf("read %s: %v", uri, perr)
		}
		got := res.(*readResourceResult).Contents[0]
		if got.Text != "Dün" || got.URI != uri {
			t.Errorf("read %s: got text %q, uri %q; want Dün and the URI as requested", uri, got.Text, got.URI)
		}
	}
}
