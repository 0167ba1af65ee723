package exchange

import (
	"bytes"
	"log/slog"
	"runtime/debug"
	"strings"
	"testing"
)

// panicLog is the line chapter 04 logs for its handler's panic, as a
// recovered panic's debug.Stack makes it (shortened): the runtime's frames,
// the recovering closure and panic() come before the function that
// panicked.
const panicLog = `time=2026-12-03T13:53:52.830Z level=ERROR msg="panic in tool handler" tool=get_author id=1 panic="runtime error: index out of range [0] with length 0" stack="goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\ngithub.com/mcpbookshop/guide/mcp.(*Server).runTool.func1()\n\t/work/wt/pins/mcp/tool.go:266 +0x88\npanic({0x7f4bc0?, 0x2d10ef6e4090?})\n\t/usr/local/go/src/runtime/panic.go:860 +0x13a\nmain.getAuthor({0x841740?, 0x2d10ef6ee138?}, {{0x2d10ef6de0e0?, 0x13?}})\n\t/work/wt/pins/chapters/04-handler-failures/main.go:34 +0xe5\ngithub.com/mcpbookshop/guide/mcp.(*Server).runTool(0x2d10ef81a000, {0x845eb0, 0x2d10ef74a050})\n\t/work/wt/pins/mcp/tool.go:272 +0x223\ncreated by github.com/mcpbookshop/guide/mcp.(*Server).serve in goroutine 1\n\t/work/wt/pins/mcp/stream.go:43 +0x13b\n"` + "\n"

func TestNormalizeLog(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{
			"time, verbatim attributes",
			`time=2026-12-03T13:55:48.727Z level=INFO msg="tool error" tool=get_author error="No book titled 'Nothing' in the catalog."` + "\n",
			`time=<time> level=INFO msg="tool error" tool=get_author error="No book titled 'Nothing' in the catalog."` + "\n",
		},
		{
			"quoted values kept as written",
			`time=2026-12-03T13:55:49.008Z level=WARN msg="protocol error" method="" code=-32602 data="{\"uri\":\"books://Nothing\"}"` + "\n",
			`time=<time> level=WARN msg="protocol error" method="" code=-32602 data="{\"uri\":\"books://Nothing\"}"` + "\n",
		},
		{
			"stack cut to the function that panicked",
			panicLog,
			`time=<time> level=ERROR msg="panic in tool handler" tool=get_author id=1 panic="runtime error: index out of range [0] with length 0" stack="goroutine <n> [running]:\nmain.getAuthor(...)"` + "\n",
		},
		{
			"a crash's stack, over many lines, cut to the function that panicked",
			"panic: runtime error: index out of range [0] with length 0\n\ngoroutine 34 [running]:\nmain.getAuthor({0x1816aa724180?, 0x13?}, 0x18?)\n\t/src/main.go:44 +0x1a5\ngithub.com/modelcontextprotocol/go-sdk/mcp.(*Server).callTool(0x1816aa7fc8c0)\n\t/mod/server.go:676 +0x2c\ncreated by github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2.(*Connection).handleAsync in goroutine 9\n\t/mod/conn.go:401 +0x9d\n",
			"panic: runtime error: index out of range [0] with length 0\n\ngoroutine <n> [running]:\nmain.getAuthor(...)\n",
		},
		{
			"runtime frames below panic skipped",
			`level=ERROR msg=crash stack="goroutine 12 [running]:\npanic({0x1?})\n\t/go/src/runtime/panic.go:860 +0x13a\nruntime.panicmem(...)\n\t/go/src/runtime/panic.go:262\nruntime.sigpanic()\n\t/go/src/runtime/signal_unix.go:925 +0x359\nmain.(*shelf).count(0x0)\n\t/src/main.go:9 +0x4\n"`,
			`level=ERROR msg=crash stack="goroutine <n> [running]:\nmain.(*shelf).count(...)"`,
		},
		{
			"a stack asked for, without a panic: the caller of debug.Stack",
			`level=INFO msg=here stack="goroutine 3 [running]:\nruntime/debug.Stack()\n\t/go/src/runtime/debug/stack.go:26 +0x5e\nmain.audit({0x1, 0x2})\n\t/src/audit.go:12 +0x1d\nmain.main()\n\t/src/main.go:5 +0x10\n"`,
			`level=INFO msg=here stack="goroutine <n> [running]:\nmain.audit(...)"`,
		},
		{
			"the panic value before the stack, as PanicError logs it",
			`level=ERROR msg=failed err="panic: boom\ngoroutine 9 [running]:\nmain.f()\n\t/src/main.go:3 +0x1\n"`,
			`level=ERROR msg=failed err="panic: boom\ngoroutine <n> [running]:\nmain.f(...)"`,
		},
		{
			"source position: directory and line",
			`time=2026-01-02T03:04:05Z level=DEBUG source=/home/me/guide/mcp/server.go:241 msg=dispatch` + "\n",
			`time=<time> level=DEBUG source=<dir>/server.go:<line> msg=dispatch` + "\n",
		},
		{
			"a line that is not slog's",
			"panic: boom\n\ngoroutine 1 [running]:\n" + "main.main()\n\t/src/main.go:3 +0x1d\nexit status 2\n",
			"panic: boom\n\ngoroutine <n> [running]:\n" + "main.main(...)\nexit status 2\n",
		},
		{
			"a quoted time elsewhere is an attribute, kept",
			`time=2026-01-02T03:04:05Z level=INFO msg=renewed until=2027-01-01T00:00:00Z` + "\n",
			`time=<time> level=INFO msg=renewed until=2027-01-01T00:00:00Z` + "\n",
		},
		{"no log", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormalizeLog(tt.in); got != tt.want {
				t.Errorf("NormalizeLog:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestNormalizeLogOfSlog normalizes what slog's text handler really writes:
// a stack from debug.Stack names this test's function, however the test
// binary was built and wherever it runs.
func TestNormalizeLogOfSlog(t *testing.T) {
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{AddSource: true})).Info("checked", "stack", string(debug.Stack()), "note", "a b")
	got := NormalizeLog(buf.String())
	want := `time=<time> level=INFO source=<dir>/normalize_test.go:<line> msg=checked stack="goroutine <n> [running]:\ngithub.com/mcpbookshop/guide/internal/exchange.TestNormalizeLogOfSlog(...)" note="a b"` + "\n"
	if got != want {
		t.Errorf("NormalizeLog:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(buf.String(), "normalize_test.go:") {
		t.Fatalf("slog wrote no source position to normalize: %s", buf.String())
	}
}
