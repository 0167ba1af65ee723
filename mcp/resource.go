package mcp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/mcpbookshop/guide/mcp/internal/urimatch"
	"github.com/yosida95/uritemplate/v3"
)

// Resource describes a resource with a fixed URI.
type Resource struct {
	// URI identifies the resource.
	URI string `json:"uri"`
	// Name is a short identifier.
	Name string `json:"name"`
	// Title is an optional human-readable name.
	Title string `json:"title,omitempty"`
	// Description says what the resource holds.
	Description string `json:"description,omitempty"`
	// MIMEType is the type of its text; "text/plain" when empty.
	MIMEType string `json:"mimeType,omitempty"`
}

// ResourceTemplate describes a family of resources by an RFC 6570 URI
// template, such as "books://{title}".
type ResourceTemplate struct {
	// URITemplate is the RFC 6570 template the URIs match.
	URITemplate string `json:"uriTemplate"`
	// Name is a short identifier.
	Name string `json:"name"`
	// Title is an optional human-readable name.
	Title string `json:"title,omitempty"`
	// Description says what each resource holds.
	Description string `json:"description,omitempty"`
	// MIMEType is the type of their text; "text/plain" when empty.
	MIMEType string `json:"mimeType,omitempty"`
}

// ResourceRequest is what a resource handler is asked to read.
type ResourceRequest struct {
	// URI is the requested URI, as the client sent it.
	URI string
	// Params holds the template's variables, percent-decoded; nil for a
	// resource with a fixed URI.
	Params map[string]string
}

// ResourceHandler reads a resource and returns its text. A read fails in
// one of three ways, by the error it returns: a [ResourceNotFoundError]
// (see [ResourceNotFound]) says the resource does not exist, and a
// [ResourceFailureError] (see [ResourceFailure]) is another failure the
// handler expected, each sent with its message; an *[Error] is sent
// verbatim; any other error, or a panic, is logged at ERROR and the client
// gets an internal error that does not reveal it.
type ResourceHandler func(ctx context.Context, req *ResourceRequest) (string, error)

// registeredResource is a fixed resource with its handler.
type registeredResource struct {
	Resource
	handler ResourceHandler
}

// registeredTemplate is a resource template, compiled, with its handler.
type registeredTemplate struct {
	ResourceTemplate
	match   *urimatch.Matcher
	handler ResourceHandler
}

// defaultMIMEType is the MIME type of a resource that names none.
const defaultMIMEType = "text/plain"

// AddResource registers a resource with a fixed URI. It panics if the URI is
// taken.
func (s *Server) AddResource(r Resource, h ResourceHandler) {
	if s.byURI[r.URI] != nil {
		panic(fmt.Sprintf("mcp: resource %q registered twice", r.URI))
	}
	if r.MIMEType == "" {
		r.MIMEType = defaultMIMEType
	}
	rr := &registeredResource{r, h}
	s.static = append(s.static, rr)
	s.byURI[r.URI] = rr
}

// AddResourceTemplate registers a resource template. A read whose URI matches
// no fixed resource is matched against the templates in the order they were
// added. It panics if the template is not valid RFC 6570.
func (s *Server) AddResourceTemplate(t ResourceTemplate, h ResourceHandler) {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		panic(fmt.Sprintf("mcp: resource template %q: %v", t.URITemplate, err))
	}
	if t.MIMEType == "" {
		t.MIMEType = defaultMIMEType
	}
	s.tmpls = append(s.tmpls, &registeredTemplate{t, urimatch.New(tmpl, t.URITemplate), h})
}

// listResourcesResult is the result of resources/list.
type listResourcesResult struct {
	Resources []*Resource `json:"resources"`
	resultMeta
	cacheable
}

// listResources serves resources/list.
func (s *Server) listResources(r *request) any {
	res := &listResourcesResult{Resources: make([]*Resource, len(s.static)), resultMeta: s.meta(r), cacheable: s.cache(r)}
	for i, rr := range s.static {
		res.Resources[i] = &rr.Resource
	}
	return res
}

// listTemplatesResult is the result of resources/templates/list.
type listTemplatesResult struct {
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	resultMeta
	cacheable
}

// listTemplates serves resources/templates/list.
func (s *Server) listTemplates(r *request) any {
	res := &listTemplatesResult{ResourceTemplates: make([]*ResourceTemplate, len(s.tmpls)), resultMeta: s.meta(r), cacheable: s.cache(r)}
	for i, t := range s.tmpls {
		res.ResourceTemplates[i] = &t.ResourceTemplate
	}
	return res
}

// ResourceContents is the text of one resource, as resources/read returns it.
type ResourceContents struct {
	// URI is the resource's URI.
	URI string `json:"uri"`
	// MIMEType is the type of Text.
	MIMEType string `json:"mimeType,omitempty"`
	// Text is the resource's text.
	Text string `json:"text"`
}

// readResourceResult is the result of resources/read.
type readResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	resultMeta
	cacheable
}

// readResource serves resources/read. Every failure is a protocol error
// carrying the requested URI in data: there is no half-result for resources.
func (s *Server) readResource(ctx context.Context, r *request) (any, *Error) {
	if r.params.URI == nil {
		return nil, errNoURI.error()
	}
	uri := *r.params.URI
	req := &ResourceRequest{URI: uri}
	var h ResourceHandler
	var mime string
	if rr := s.byURI[uri]; rr != nil {
		h, mime = rr.handler, rr.MIMEType
	} else {
		// A template matches URIs, whose non-ASCII characters are
		// percent-encoded; clients often send them raw (as IRIs).
		target := urimatch.EscapeNonASCII(uri)
		for _, t := range s.tmpls {
			if req.Params = t.match.Match(target); req.Params != nil {
				h, mime = t.handler, t.MIMEType
				break
			}
		}
	}
	if h == nil {
		return nil, errUnknownResource.error(uri)
	}
	text, perr := s.runResource(ctx, r, h, req)
	if perr != nil {
		return nil, perr
	}
	return &readResourceResult{
		Contents:   []ResourceContents{{URI: uri, MIMEType: mime, Text: text}},
		resultMeta: s.meta(r),
		cacheable:  s.cache(r),
	}, nil
}

// runResource runs a resource handler for r and maps its error or panic.
// An internal error carries the failure as its cause, for the one log line
// that reports it.
func (s *Server) runResource(
	ctx context.Context,
	r *request,
	h ResourceHandler,
	req *ResourceRequest,
) (text string, perr *Error) {
	defer func() {
		if v := recover(); v != nil {
			text, perr = "", errResourceFailed.withCause(&PanicError{Value: v, Stack: debug.Stack()}, req.URI)
		}
	}()
	text, err := h(ctx, req)
	if err == nil {
		return text, nil
	}
	r.gaveUp = errors.Is(err, context.Canceled)
	if perr, ok := errors.AsType[*Error](err); ok {
		return "", perr
	}
	if nf, ok := errors.AsType[*ResourceNotFoundError](err); ok {
		return "", errResourceNotFound.error(nf.Message, req.URI)
	}
	if re, ok := errors.AsType[*ResourceFailureError](err); ok {
		return "", errResourceError.error(re.Message, req.URI)
	}
	return "", errResourceFailed.withCause(err, req.URI)
}
