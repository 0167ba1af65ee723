package nginx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// variants are the configurations the tests run: mcp.conf as it is, and
// without its sticky rule, so plain round-robin.
func variants(t *testing.T) map[string]string {
	conf := recipe(t)
	return map[string]string{"sticky": conf, "round-robin": withoutSticky(t, conf)}
}

// modernCalls is how many modern-era calls TestModernSpreads sends.
const modernCalls = 30

// TestModernSpreads: modern-era calls, which carry no session, are spread
// over all three backends, with or without the sticky rule, and every reply
// is the one a backend gives directly.
func TestModernSpreads(t *testing.T) {
	needNginx(t)
	for name, conf := range variants(t) {
		t.Run(name, func(t *testing.T) {
			backends := startBackends(t, "01-tool-errors")
			url := startNginx(t, conf, backends)
			titles := []string{"Dune", "Nothing"}
			want := make(map[string]reply)
			for _, title := range titles {
				body, headers := modernCall(1, title)
				r, err := post("http://"+backends[0].addr+"/mcp", body, headers)
				if err != nil || r.status != 200 || !strings.Contains(r.body, `"result"`) {
					t.Fatalf("direct call for %s: %+v, %v", title, r, err)
				}
				want[title] = r
			}
			var served counter
			for i := range modernCalls {
				title := titles[i%len(titles)]
				body, headers := modernCall(1, title)
				r, err := post(url, body, headers)
				if err != nil || r.status != want[title].status || r.body != want[title].body {
					t.Fatalf("call %d through nginx: %+v, %v; want %+v", i, r, err, want[title])
				}
				served.add(r.upstream)
			}
			for i, b := range backends {
				if served.get(b.addr) == 0 {
					t.Errorf("backend %d (%s) answered none of %d calls: %v", i+1, b.addr, modernCalls, served.m)
				}
			}
			t.Logf("%d calls, every reply correct, answered by backend: %v", modernCalls, served.m)
		})
	}
}

// legacySessions is how many sessions TestLegacySessions opens.
const legacySessions = 6

// legacyRequests are what each session sends after initialize:
// notifications/initialized, then three calls.
var legacyRequests = []string{
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Dune"}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_author","arguments":{"title":"Nothing"}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
}

// legacySession opens a legacy-era session at url and sends it
// legacyRequests, and returns the initialize's reply and theirs.
func legacySession(t *testing.T, url string) (reply, []reply) {
	t.Helper()
	init, err := post(url, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deploy-test","version":"1.0.0"}}}`, nil)
	if err != nil || init.status != 200 || init.session == "" {
		t.Fatalf("initialize: %+v, %v; want 200 and a session", init, err)
	}
	var replies []reply
	for _, req := range legacyRequests {
		r, err := post(url, req, map[string]string{"Mcp-Session-Id": init.session, "Mcp-Protocol-Version": "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, r)
	}
	return init, replies
}

// TestLegacySessions: legacy-era sessions work through nginx with the
// sticky rule, every request reaching the backend that answered its
// initialize; without it, the requests that land on another backend are
// answered 404, the specification's answer for an unknown session.
func TestLegacySessions(t *testing.T) {
	needNginx(t)
	backends := startBackends(t, "01-tool-errors")
	_, want := legacySession(t, "http://"+backends[0].addr+"/mcp")
	t.Run("sticky", func(t *testing.T) {
		url := startNginx(t, recipe(t), backends)
		var opened counter
		for range legacySessions {
			init, replies := legacySession(t, url)
			opened.add(init.upstream)
			for i, r := range replies {
				if r.upstream != init.upstream || r.status != want[i].status || r.body != want[i].body {
					t.Errorf("request %s after initialize at %s: %+v; want %+v from the same backend", legacyRequests[i], init.upstream, r, want[i])
				}
			}
		}
		if len(opened.m) != len(backends) {
			t.Errorf("%d sessions opened on backends %v, want all %d used", legacySessions, opened.m, len(backends))
		}
		t.Logf("%d sessions, every request at its own backend and answered; sessions by backend: %v", legacySessions, opened.m)
	})
	t.Run("round-robin", func(t *testing.T) {
		url := startNginx(t, withoutSticky(t, recipe(t)), backends)
		var lost, kept int
		for range legacySessions {
			init, replies := legacySession(t, url)
			for i, r := range replies {
				switch {
				case r.upstream == init.upstream:
					kept++
					if r.status != want[i].status || r.body != want[i].body {
						t.Errorf("request %s at the session's backend: %+v, want %+v", legacyRequests[i], r, want[i])
					}
				case r.status == 404 && isJSONRPCError(r.body):
					lost++
				default:
					t.Errorf("request %s at %s, session opened at %s: %+v; want 404 with a JSON-RPC error", legacyRequests[i], r.upstream, init.upstream, r)
				}
			}
		}
		if lost == 0 {
			t.Errorf("no request of %d sessions reached another backend than its initialize's", legacySessions)
		}
		t.Logf("%d sessions: %d requests reached another backend and got 404, %d reached the session's own", legacySessions, lost, kept)
	})
}

// isJSONRPCError reports whether body is a JSON-RPC error response.
func isJSONRPCError(body string) bool {
	var r struct {
		Error *struct{ Code int } `json:"error"`
	}
	return json.Unmarshal([]byte(body), &r) == nil && r.Error != nil && r.Error.Code != 0
}

// sdkCases are the pinned cases TestSDKThroughNginx has the official SDK's
// client replay through nginx, by the name the chapters' scripts give them:
// each a call for a title the catalog lacks, after one for a title it has.
var sdkCases = map[string]func(ctx context.Context, cs *mcp.ClientSession) []string{
	"tool-error": func(ctx context.Context, cs *mcp.ClientSession) []string {
		return []string{callTool(ctx, cs, "Dune"), callTool(ctx, cs, "Nothing")}
	},
	"protocol-error": func(ctx context.Context, cs *mcp.ClientSession) []string {
		return []string{callTool(ctx, cs, "Dune"), callTool(ctx, cs, "Nothing")}
	},
	"not-found": func(ctx context.Context, cs *mcp.ClientSession) []string {
		return []string{readResource(ctx, cs, "books://Dune"), readResource(ctx, cs, "books://Nothing")}
	},
}

// An sdkChapter is a chapter TestSDKThroughNginx runs: the case of
// sdkCases its modern-era script pins, and that pinned reply and what a
// failure says of it (exchange.PinHelp).
type sdkChapter struct {
	chapter, name string
	want          exchange.Reply
	help          string
}

// sdkChapters returns the chapters TestSDKThroughNginx runs, by this rule:
// every chapter of chapters/ whose modern-era script pins one of sdkCases
// (chapter 04, whose failures are panics and deadlines, pins none).
func sdkChapters(t *testing.T) []sdkChapter {
	chapters, err := chapterproc.List()
	if err != nil {
		t.Fatal(err)
	}
	var runs []sdkChapter
	for _, ch := range chapters {
		for _, name := range slices.Sorted(maps.Keys(sdkCases)) {
			archive := filepath.Join("../../testdata/scripts", ch, "modern.txtar")
			r, err := exchange.PinnedReply(archive, name)
			if errors.Is(err, exchange.ErrNotPinned) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, sdkChapter{ch, name, r, exchange.PinHelp(archive, "want/"+name+".jsonl")})
			break
		}
	}
	if len(runs) == 0 {
		t.Fatalf("no chapter's modern.txtar pins a case the test replays (%v)", slices.Sorted(maps.Keys(sdkCases)))
	}
	return runs
}

// describePinned describes a pinned reply as callTool, readResource and
// describe describe what the client got.
func describePinned(r exchange.Reply) string {
	if r.Code != 0 {
		return fmt.Sprintf("error %d %q data %s", r.Code, r.Text, r.Data)
	}
	return fmt.Sprintf("isError=%v %q", r.IsError, r.Text)
}

// callTool calls get_author for title and describes what the client got.
func callTool(ctx context.Context, cs *mcp.ClientSession, title string) string {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_author", Arguments: map[string]any{"title": title}})
	if err != nil {
		return describe(err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return fmt.Sprintf("isError=%v %q", res.IsError, strings.Join(texts, "\n"))
}

// readResource reads uri and describes what the client got.
func readResource(ctx context.Context, cs *mcp.ClientSession, uri string) string {
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return describe(err)
	}
	var texts []string
	for _, c := range res.Contents {
		texts = append(texts, c.Text)
	}
	return fmt.Sprintf("contents %q", texts)
}

// describe describes an error the client got: the JSON-RPC error's code,
// message and data, or the error itself.
func describe(err error) string {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return fmt.Sprintf("error %d %q data %s", werr.Code, werr.Message, werr.Data)
	}
	return "error " + err.Error()
}

// sdkEras are the protocol versions the SDK's client connects at: the
// legacy handshake, and by default the modern era.
var sdkEras = map[string]*mcp.ClientSessionOptions{
	"legacy": {ProtocolVersion: "2025-11-25"},
	"modern": nil,
}

// sdkSee connects the official SDK's client to url in an era and returns
// what it sees when it replays the case.
func sdkSee(t *testing.T, name, url string, opts *mcp.ClientSessionOptions) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "deploy-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, opts)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	defer cs.Close()
	seen := append([]string{"protocol " + cs.InitializeResult().ProtocolVersion}, sdkCases[name](ctx, cs)...)
	return seen
}

// TestSDKThroughNginx: the official Go SDK's client, in both eras, sees
// each chapter's error through nginx exactly as it does directly, and
// directly as the chapter's script pins it (see sdkChapters).
func TestSDKThroughNginx(t *testing.T) {
	needNginx(t)
	for _, run := range sdkChapters(t) {
		t.Run(run.chapter, func(t *testing.T) {
			backends := startBackends(t, run.chapter)
			url := startNginx(t, recipe(t), backends)
			want := describePinned(run.want)
			for era, opts := range sdkEras {
				t.Run(era, func(t *testing.T) {
					direct := sdkSee(t, run.name, "http://"+backends[0].addr+"/mcp", opts)
					if !slices.Contains(direct, want) {
						t.Fatalf("directly the client sees %q, without the pinned reply %s\n%s", direct, want, run.help)
					}
					through := sdkSee(t, run.name, url, opts)
					if strings.Join(through, "\n") != strings.Join(direct, "\n") {
						t.Errorf("through nginx the client sees\n%q\ndirectly\n%q", through, direct)
					}
				})
			}
		})
	}
}
