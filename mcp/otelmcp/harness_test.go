package otelmcp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// testTimeout bounds every wait of the tests.
const testTimeout = 10 * time.Second

// telemetry is an SDK tracer provider exporting each span as it ends into
// memory, and an SDK meter provider read on demand.
type telemetry struct {
	spans  *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

// newTelemetry returns a telemetry, shut down when t ends.
func newTelemetry(t *testing.T) *telemetry {
	t.Helper()
	tel := &telemetry{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tel.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(tel.spans))
	tel.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.reader))
	t.Cleanup(func() {
		tel.tp.Shutdown(context.Background())
		tel.mp.Shutdown(context.Background())
	})
	return tel
}

// recorder returns a Recorder recording into tel, configured by opts.
func (tel *telemetry) recorder(t *testing.T, opts Options) *Recorder {
	t.Helper()
	opts.TracerProvider, opts.MeterProvider = tel.tp, tel.mp
	r, err := New(&opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// takeSpans returns the spans ended since the last call.
func (tel *telemetry) takeSpans() tracetest.SpanStubs {
	spans := tel.spans.GetSpans()
	tel.spans.Reset()
	return spans
}

// oneSpan returns the one span ended since the last call, failing the
// test if there is not exactly one.
func (tel *telemetry) oneSpan(t *testing.T, what string) tracetest.SpanStub {
	t.Helper()
	spans := tel.takeSpans()
	if len(spans) != 1 {
		t.Fatalf("%s: %d spans ended, want 1: %v", what, len(spans), spanNames(spans))
	}
	return spans[0]
}

// spanNames returns the names of spans.
func spanNames(spans tracetest.SpanStubs) []string {
	var names []string
	for _, s := range spans {
		names = append(names, s.Name)
	}
	return names
}

// durations returns the points of mcp.server.operation.duration, and the
// histogram's unit.
func (tel *telemetry) durations(t *testing.T) ([]metricdata.HistogramDataPoint[float64], string) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != MetricServerOperationDuration {
				continue
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T, want a float64 histogram", m.Name, m.Data)
			}
			return h.DataPoints, m.Unit
		}
	}
	return nil, ""
}

// attrs returns a span's or a point's attributes as a map of strings.
func attrs(kvs []attribute.KeyValue) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.String()
	}
	return m
}

// echoArgs, countArgs, priceArgs and price are the arguments and
// structured results of the test server's tools.
type (
	echoArgs struct {
		Text string `json:"text"`
	}
	countArgs struct {
		N int `json:"n"`
	}
	priceArgs struct {
		Title string `json:"title"`
	}
	price struct {
		Title string  `json:"title"`
		Price float64 `json:"price" mcp:"minimum=0"`
	}
)

// newServer returns a server observed by observe, whose tools and resource
// template fail in every way a handler can:
//
//   - echo: a result, or a tool error for an empty text;
//   - count: arguments whose n must fit an int;
//   - refuse: a handler's protocol error, code -32001;
//   - first: a panic (an index out of range);
//   - internal: an mcp.Internal error, its cause withheld;
//   - unencodable: a result encoding/json cannot encode;
//   - price: a result, or a tool error, that breaks its schema;
//   - wait: sends its context on started (if not nil) and runs until it is
//     done;
//   - shelf://{n}: "missing" is not found, "locked" fails, "dusted" is a
//     resource failure, any other reads.
func newServer(observe func(context.Context, mcp.RequestInfo) (context.Context, func(mcp.Outcome)), started chan<- context.Context) *mcp.Server {
	s := mcp.NewServer("traced", "1.0.0", &mcp.Options{Logger: slog.New(slog.DiscardHandler), Observe: observe})
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, a echoArgs) (string, error) {
		if a.Text == "" {
			return "", errors.New("nothing to echo")
		}
		return a.Text, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "count"}, func(ctx context.Context, a countArgs) (int, error) { return a.N, nil })
	mcp.AddTool(s, mcp.Tool{Name: "refuse"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", &mcp.Error{Code: -32001, Message: "Not today"}
	})
	mcp.AddTool(s, mcp.Tool{Name: "first"}, func(ctx context.Context, _ struct{}) (string, error) {
		var authors []string
		return authors[0], nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "internal"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "", mcp.Internal(errors.New(`relation "stock" does not exist`))
	})
	mcp.AddTool(s, mcp.Tool{Name: "unencodable"}, func(ctx context.Context, _ struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: func() {}}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "price"}, func(ctx context.Context, a priceArgs) (price, error) {
		if a.Title == "Nothing" {
			return price{}, &mcp.ToolError{Text: "No such book.", Structured: map[string]string{"error": "not found"}}
		}
		return price{Title: a.Title, Price: -2}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "wait"}, func(ctx context.Context, _ struct{}) (string, error) {
		if started != nil {
			started <- ctx
		}
		<-ctx.Done()
		return "", ctx.Err()
	})
	s.AddResourceTemplate(mcp.ResourceTemplate{URITemplate: "shelf://{n}", Name: "shelf"}, func(ctx context.Context, req *mcp.ResourceRequest) (string, error) {
		switch n := req.Params["n"]; n {
		case "missing":
			return "", mcp.ResourceNotFound("No shelf %s.", n)
		case "locked":
			return "", errors.New("the shelf is locked")
		case "dusted":
			return "", mcp.ResourceFailure("Shelf %s is being dusted; try again in a minute.", n)
		}
		return "books", nil
	})
	return s
}

// stdio is a connection to a server over a stream of lines, as Main
// without -http serves stdin and stdout.
type stdio struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

// serveStdio serves a new connection to s, closed when t ends.
func serveStdio(t *testing.T, s *mcp.Server) *stdio {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdio{t: t, in: inW, lines: make(chan string, 16), done: make(chan error, 1)}
	go func() {
		err := s.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(testTimeout):
			t.Error("Serve did not return once its input closed")
		}
	})
	return c
}

// send writes line to the server.
func (c *stdio) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// call writes line to the server and returns the line it answers.
func (c *stdio) call(line string) string {
	c.t.Helper()
	c.send(line)
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("the server closed its output; it was sent %s", line)
		}
		return l
	case <-time.After(testTimeout):
		c.t.Fatalf("no answer to %s", line)
	}
	return ""
}

// post sends body to url with mcptest.Post, failing the test if no
// response comes.
func post(t *testing.T, ctx context.Context, url, body string, hdr map[string]string) mcptest.Response {
	t.Helper()
	r, err := mcptest.Post(ctx, nil, url, body, hdr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
