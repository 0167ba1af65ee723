package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/mcp"
)

// TestURL: with -url, mcpc asks a server over Streamable HTTP, in each era,
// and tells the three outcomes apart by its exit status as over stdio.
func TestURL(t *testing.T) {
	s := mcp.NewServer("Bookshop", "1.0.0", &mcp.Options{Logger: slog.New(slog.DiscardHandler)})
	type args struct {
		Title string `json:"title"`
	}
	mcp.AddTool(s, mcp.Tool{Name: "get_author"}, func(ctx context.Context, a args) (string, error) {
		switch a.Title {
		case "Dune":
			return "Frank Herbert", nil
		case "Refused":
			return "", &mcp.Error{Code: mcp.CodeInvalidParams, Message: "No such book."}
		}
		return "", errors.New("no such book")
	})
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()

	for _, era := range []string{"auto", "modern", "legacy"} {
		for _, tt := range []struct {
			title, want string
			code        int
		}{
			{"Dune", `"text": "Frank Herbert"`, exitResult},
			{"Nothing", `"text": "Error executing tool get_author: no such book"`, exitToolError},
			{"Refused", `"message": "No such book."`, exitProtocolError},
		} {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"-url", ts.URL, "-era", era, "call", "get_author", `{"title":"` + tt.title + `"}`}, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stdout.String(), tt.want) {
				t.Errorf("%s %s: status %d, stdout %s, stderr %s; want %d and %s", era, tt.title, code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
		}
	}
}

// TestURLUsage: -url takes the place of the server command, and raw does
// not take it.
func TestURLUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-url", "http://127.0.0.1:1/mcp", "tools", "--", "server"},
		{"-url", "http://127.0.0.1:1/mcp", "raw", "{}"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != exitFailure || !strings.Contains(stderr.String(), "-url") {
			t.Errorf("%q: status %d, stderr %s; want %d and a word about -url", args, code, stderr.String(), exitFailure)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-url", "http://127.0.0.1:1/mcp", "-era", "modern", "tools"}, &stdout, &stderr); code != exitFailure {
		t.Errorf("no server at the URL: status %d, want %d", code, exitFailure)
	}
}
