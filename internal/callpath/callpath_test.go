package callpath

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
)

// setup finds the module and records the chapter's sources for the test
// cache, so that an edit to the chapter or to mcp/ runs the tests again
// (go test does not see the files a go build subprocess reads).
func setup(t *testing.T, chapters ...string) Module {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	ctx := t.Context()
	m, err := FindModule(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, ch := range chapters {
		patterns = append(patterns, "./"+ch)
	}
	sources, err := chapterproc.ModuleSources(ctx, m.Dir, nil, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if err := chapterproc.Record(sources); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSuccess checks what a reader relies on in chapter 01's pinned
// success (TestPin holds the pin to a new measure): the handler among the
// chapter's own functions and not counted, callTool counted, and what
// every session runs left out of the count.
func TestSuccess(t *testing.T) {
	p, err := ReadPin(os.DirFS(moduleRoot(t)), PinFile)
	if err != nil {
		t.Fatal(err)
	}
	c, ch := p.Case("success")
	if c == nil {
		t.Fatalf("no case success in %s", PinFile)
	}
	if n := len(c.Functions); n < 10 || len(c.WithClosures) < n {
		t.Errorf("%d functions, %d with closures: want at least 10, and no fewer with closures", n, len(c.WithClosures))
	}
	if !slices.Contains(c.Functions, PinFunc{"mcp/tool.go", "Server.callTool"}) {
		t.Errorf("Server.callTool (mcp/tool.go) is not counted: %v", c.Functions)
	}
	if !slices.Contains(c.Own, PinFunc{ch.Chapter + "/main.go", "getAuthor"}) {
		t.Errorf("the chapter's own functions are %v, want getAuthor among them", c.Own)
	}
	for _, f := range slices.Concat(c.Functions, c.WithClosures) {
		if strings.HasPrefix(f.File, ch.Chapter+"/") {
			t.Errorf("%s of the chapter is counted; it belongs among its own", f)
		}
	}
	for _, f := range []PinFunc{{"mcp/server.go", "NewServer"}, {"mcp/main.go", "Main"}, {"mcp/stream.go", "Server.serve"}} {
		if !slices.Contains(ch.Setup, f) || slices.Contains(c.Functions, f) {
			t.Errorf("%s, which every session runs, is not among the setup, or is counted", f)
		}
	}
}

// TestMatchesCovdataFunc checks the count without closures against go tool
// covdata func on the same two sessions: the declarations it reports
// covered with the call and not in the empty session, by file and line.
func TestMatchesCovdataFunc(t *testing.T) {
	const chapter = "chapters/01-tool-errors"
	m := setup(t, chapter)
	ctx := t.Context()
	tmp := t.TempDir()
	bin, err := build(ctx, m, "./"+chapter, tmp)
	if err != nil {
		t.Fatal(err)
	}
	empty := &session{Name: "empty"}
	emptyBlocks, err := empty.covered(ctx, bin, tmp, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	call := &session{Name: "tool-error", Input: Cases[1].Request + "\n"}
	callBlocks, err := call.covered(ctx, bin, tmp, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	mainPkg := path.Join(m.Path, chapter)
	r, err := difference(m, mainPkg, [][]block{callBlocks}, [][]block{emptyBlocks})
	if err != nil {
		t.Fatal(err)
	}
	// go tool covdata func names a function by the line its body opens
	// on: the func keyword's, unless the signature spans lines.
	var got []string
	for _, f := range r.Functions {
		got = append(got, f.Pkg+"/"+f.File+":"+strconv.Itoa(f.start.Line))
	}
	emptyRan, callRan := covdataFunc(t, ctx, empty.CoverDir), covdataFunc(t, ctx, call.CoverDir)
	var want []string
	for _, fn := range callRan {
		if !slices.Contains(emptyRan, fn) && !strings.HasPrefix(fn, mainPkg+"/") {
			want = append(want, fn)
		}
	}
	for _, fn := range got {
		if !slices.Contains(want, fn) {
			t.Errorf("%s counted; go tool covdata func does not report it covered with the call only", fn)
		}
	}
	for _, fn := range want {
		if !slices.Contains(got, fn) {
			t.Errorf("%s not counted; go tool covdata func reports it covered with the call only", fn)
		}
	}
	if len(got) == 0 {
		t.Error("no function counted")
	}
}

// covdataFunc returns file:line of each function that go tool covdata
// func reports partly or wholly covered in dir.
func covdataFunc(t *testing.T, ctx context.Context, dir string) []string {
	t.Helper()
	out, err := goCmd(ctx, "", "tool", "covdata", "func", "-i", dir)
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for line := range strings.Lines(out) {
		fields := strings.Fields(line)
		if len(fields) < 3 || fields[0] == "total" {
			continue
		}
		if fields[len(fields)-1] != "0.0%" {
			ran = append(ran, strings.TrimSuffix(fields[0], ":"))
		}
	}
	if len(ran) == 0 {
		t.Fatalf("go tool covdata func -i %s: no function covered:\n%s", dir, out)
	}
	return ran
}

// TestNames checks the names given to declarations and func literals, and
// which function a block belongs to, on a small file.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	src := `package p

var hook = func() { println() }

type T[K any] struct{}

func (t *T[K]) M() {
	f := func() {
		g := func() { println() }
		g()
	}
	f()
	func() { println() }()
}

func (T[K]) V() { println() }

func F() { println() }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	m := Module{Path: "example.com/m", Dir: dir}
	x := newIndex(m)
	at := func(line, col int) block {
		return block{File: "example.com/m/p.go", StartLine: line, StartCol: col, EndLine: line, EndCol: col + 1, Statements: 1, Count: 1}
	}
	blocks := []block{at(3, 19), at(7, 20), at(8, 14), at(9, 15), at(13, 10), at(16, 17), at(18, 10)}
	if err := x.load(blocks); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		decl bool
		top  string
	}{
		{"init.func1", false, "init.func1"},
		{"(*T[...]).M", true, "(*T[...]).M"},
		{"(*T[...]).M.func1", false, "(*T[...]).M"},
		{"(*T[...]).M.func1.1", false, "(*T[...]).M"},
		{"(*T[...]).M.func2", false, "(*T[...]).M"},
		{"T[...].V", true, "T[...].V"},
		{"F", true, "F"},
	}
	for i, b := range blocks {
		f, err := x.functionOf(b)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != want[i].name || f.Decl != want[i].decl || f.Top.Name != want[i].top {
			t.Errorf("block at %d.%d: in %s (declaration %v, top %s), want %s (%v, %s)",
				b.StartLine, b.StartCol, f.Name, f.Decl, f.Top.Name, want[i].name, want[i].decl, want[i].top)
		}
	}
	if _, err := x.functionOf(at(5, 1)); err == nil {
		t.Error("a block outside every function body: no error")
	}
}

// TestParseProfile reads the text form of a profile and rejects what is
// not one.
func TestParseProfile(t *testing.T) {
	blocks, err := parseProfile("mode: set\nexample.com/m/a b.go:1.2,3.4 5 1\nexample.com/m/c.go:6.7,8.9 1 0\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []block{{File: "example.com/m/a b.go", StartLine: 1, StartCol: 2, EndLine: 3, EndCol: 4, Statements: 5, Count: 1}}
	if !slices.Equal(blocks, want) {
		t.Errorf("got %+v, want %+v (the block that did not run left out)", blocks, want)
	}
	for _, bad := range []string{"", "example.com/m/c.go:6.7,8.9 1 0\n", "mode: set\nc.go:6.7 1 0\n", "mode: set\nc.go:6.x,8.9 1 0\n"} {
		if _, err := parseProfile(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestCheck checks the reply a case must get.
func TestCheck(t *testing.T) {
	ok := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}` + "\n"
	toolErr := `{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}` + "\n"
	rpcErr := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}` + "\n"
	for _, tc := range []struct {
		Expect Expect
		stdout string
		want   string // in the error; "" for none
	}{
		{ExpectResult, ok, ""},
		{ExpectResult, toolErr, `not a "result" without "isError":true`},
		{ExpectResult, "", "no reply"},
		{ExpectResult, ok + ok, "2 lines"},
		{ExpectResult, `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n", "id 2"},
		{ExpectResult, "hello\n", "not a JSON object"},
		{ExpectToolError, toolErr, ""},
		{ExpectToolError, ok, `not a "result" with "isError":true`},
		{ExpectError, rpcErr, ""},
		{ExpectError, ok, `not an "error" object`},
	} {
		err := Case{Name: "c", Expect: tc.Expect}.check(tc.stdout)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s, %q: %v", tc.Expect, tc.stdout, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %q: error %v, want one saying %q", tc.Expect, tc.stdout, err, tc.want)
		}
	}
}
