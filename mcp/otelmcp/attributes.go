package otelmcp

import (
	"encoding/json"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mcpbookshop/guide/mcp"
)

// MetricServerOperationDuration is the name of the histogram a [Recorder]
// records each request's duration in, in seconds.
const MetricServerOperationDuration = "mcp.server.operation.duration"

// The attributes a [Recorder] sets, by the names the conventions give
// them.
const (
	MethodNameKey            = attribute.Key("mcp.method.name")
	ProtocolVersionKey       = attribute.Key("mcp.protocol.version")
	ResourceURIKey           = attribute.Key("mcp.resource.uri")
	JSONRPCRequestIDKey      = attribute.Key("jsonrpc.request.id")
	RPCResponseStatusCodeKey = attribute.Key("rpc.response.status_code")
	ErrorTypeKey             = attribute.Key("error.type")
	ToolNameKey              = attribute.Key("gen_ai.tool.name")
	OperationNameKey         = attribute.Key("gen_ai.operation.name")
	NetworkTransportKey      = attribute.Key("network.transport")
	NetworkProtocolNameKey   = attribute.Key("network.protocol.name")
)

// commonAttributes returns the attributes of req that both its span and
// its duration carry: all low in cardinality but the tool's name, which
// the conventions require on both.
func commonAttributes(req mcp.RequestInfo) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, MethodNameKey.String(req.Method))
	if req.Method == "tools/call" {
		attrs = append(attrs, OperationNameKey.String("execute_tool"))
		if req.Name != "" {
			attrs = append(attrs, ToolNameKey.String(req.Name))
		}
	}
	if req.ProtocolVersion != "" {
		attrs = append(attrs, ProtocolVersionKey.String(req.ProtocolVersion))
	}
	// The conventions' table "Recording MCP transport": stdio is a pipe,
	// Streamable HTTP is HTTP over TCP. A Session handed messages in
	// process has no network between client and server.
	switch req.Transport {
	case mcp.TransportStdio:
		attrs = append(attrs, NetworkTransportKey.String("pipe"))
	case mcp.TransportHTTP:
		attrs = append(attrs, NetworkTransportKey.String("tcp"), NetworkProtocolNameKey.String("http"))
	}
	return attrs
}

// spanAttributes returns the attributes of req that only its span
// carries: the request's id and the resource's URI, one value per request.
func spanAttributes(req mcp.RequestInfo) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	if id, ok := requestID(req.ID); ok {
		attrs = append(attrs, JSONRPCRequestIDKey.String(id))
	}
	if req.Method == "resources/read" && req.Name != "" {
		attrs = append(attrs, ResourceURIKey.String(req.Name))
	}
	return attrs
}

// requestID returns the string form of a request id, the JSON text id:
// a string's value, a number's digits. The conventions record no id when
// it is null or missing.
func requestID(id json.RawMessage) (string, bool) {
	if len(id) == 0 || string(id) == "null" {
		return "", false
	}
	if id[0] == '"' {
		var s string
		if err := json.Unmarshal(id, &s); err == nil {
			return s, true
		}
	}
	return string(id), true
}

// spanName returns the name of req's span: "{mcp.method.name} {target}",
// the target being the tool of a tools/call, or with uriTarget the URI of
// a resources/read; the method alone when there is no target.
func spanName(req mcp.RequestInfo, uriTarget bool) string {
	switch {
	case req.Name == "":
	case req.Method == "tools/call", req.Method == "resources/read" && uriTarget:
		return req.Method + " " + req.Name
	}
	return req.Method
}
