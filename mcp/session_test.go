package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
	"github.com/mcpbookshop/guide/mcp"
)

// handle hands line to session and decodes the response, which must be
// one.
func handle(t *testing.T, ctx context.Context, session *mcp.Session, line string) mcptest.Reply {
	t.Helper()
	r, err := mcptest.ParseReply(string(session.Handle(ctx, []byte(line))))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return r
}

const (
	sessionInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	sessionCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe","arguments":{}}}`
)

type ctxKey struct{}

// newSessionTestServer returns a server whose tool "probe" says whether its
// context carries the test's value and whether it is cancelled.
func newSessionTestServer() *mcp.Server {
	s := mcp.NewServer("test", "1.0.0", &mcp.Options{Logger: slog.New(slog.DiscardHandler)})
	mcp.AddTool(s, mcp.Tool{Name: "probe"}, func(ctx context.Context, _ struct{}) (string, error) {
		v, _ := ctx.Value(ctxKey{}).(string)
		if ctx.Err() != nil {
			v += ", cancelled"
		}
		return v, nil
	})
	return s
}

// TestSessionState: a session keeps the version its initialize negotiated,
// and each session has its own.
func TestSessionState(t *testing.T) {
	s := newSessionTestServer()
	ctx := context.Background()
	session := s.NewSession()
	if r := handle(t, ctx, session, sessionCall); r.Error == nil || r.Error.Code != mcp.CodeInvalidParams {
		t.Errorf("a call before initialize: got %+v, want -32602", r)
	}
	if r := handle(t, ctx, session, sessionInit); r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("initialize: got %+v", r)
	}
	if resp := session.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); resp != nil {
		t.Errorf("a notification was answered: %s", resp)
	}
	if r := handle(t, ctx, session, sessionCall); r.Error != nil || string(r.ID) != "2" {
		t.Errorf("a call after initialize: got %+v, want a result", r)
	}
	if r := handle(t, ctx, session, sessionInit); r.Error == nil || r.Error.Code != mcp.CodeInvalidRequest {
		t.Errorf("a second initialize: got %+v, want -32600", r)
	}
	if r := handle(t, ctx, s.NewSession(), sessionCall); r.Error == nil {
		t.Errorf("a call on a new session was served: %+v, want the session uninitialized", r)
	}
}

// TestSessionBadInput: what is not one message is answered with the error a
// stream would send; a response is not answered.
func TestSessionBadInput(t *testing.T) {
	session := newSessionTestServer().NewSession()
	ctx := context.Background()
	for line, code := range map[string]int{
		`{"jsonrpc":"2.0","id":3,`:                 mcp.CodeParseError,
		`[` + sessionInit + `]`:                    mcp.CodeInvalidRequest,
		`{"jsonrpc":"1.0","id":3,"method":"ping"}`: mcp.CodeInvalidRequest,
	} {
		if r := handle(t, ctx, session, line); r.Error == nil || r.Error.Code != code {
			t.Errorf("%s: got %+v, want code %d", line, r, code)
		}
	}
	if resp := session.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":9,"result":{}}`)); resp != nil {
		t.Errorf("a response was answered: %s", resp)
	}
}

// TestSessionContext: the handler runs with the context given to Handle;
// cancelling it cancels the handler, and the request then gets no response.
func TestSessionContext(t *testing.T) {
	session := newSessionTestServer().NewSession()
	handle(t, context.Background(), session, sessionInit)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "mine"))
	r := handle(t, ctx, session, sessionCall)
	var res mcp.CallToolResult
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != "mine" {
		t.Errorf("the handler's context: got %s, %v; want the caller's", r.Result, err)
	}
	cancel()
	if resp := session.Handle(ctx, []byte(sessionCall)); resp != nil {
		t.Errorf("a cancelled request was answered: %s", resp)
	}
}
