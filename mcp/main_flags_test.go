package mcp

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/mcptest"
)

// mainFlagsEnv names the environment variable that makes the test binary
// run a chapter-style program with a flag of its own (see
// TestHelperMainFlags).
const mainFlagsEnv = "MCP_TEST_MAIN_FLAGS"

// TestHelperMainFlags is not a test: with mainFlagsEnv set, it runs a
// program as a chapter would write it, defining -greeting with package
// flag before Main, with the arguments in mainFlagsEnv.
func TestHelperMainFlags(t *testing.T) {
	args, ok := os.LookupEnv(mainFlagsEnv)
	if !ok {
		t.Skip("the process of TestMainParsesTheProgramsFlags")
	}
	greeting := flag.String("greeting", "Hello", "the `WORD` to greet with")
	s := NewServer("greeter", "1.0.0", nil)
	AddTool(s, Tool{Name: "greet"}, func(ctx context.Context, args struct {
		Name string `json:"name"`
	}) (string, error) {
		return *greeting + ", " + args.Name + "!", nil
	})
	os.Args = append(os.Args[:1], strings.Fields(args)...)
	Main(s)
	os.Exit(0)
}

// runMainFlags runs TestHelperMainFlags's program with args and stdin,
// and returns its stdout and stderr.
func runMainFlags(t *testing.T, args, stdin string) (string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMainFlags$")
	cmd.Env = append(os.Environ(), mainFlagsEnv+"="+args, "GORACE=atexit_sleep_ms=0")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstderr:\n%s", args, err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// A program's own flag, defined with package flag before Main, is parsed
// by Main and listed by -h with Main's.
func TestMainParsesTheProgramsFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary")
	}
	call := mcptest.ToolCall("1", "greet", `{"name":"Ada"}`) + "\n"
	for _, tt := range []struct{ args, want string }{
		{"", `"text":"Hello, Ada!"`},
		{"-greeting Hi", `"text":"Hi, Ada!"`},
		{"-greeting=Ahoy", `"text":"Ahoy, Ada!"`},
		{"-session-prefix b1- -greeting Hej", `"text":"Hej, Ada!"`},
	} {
		if stdout, _ := runMainFlags(t, tt.args, call); !strings.Contains(stdout, tt.want) {
			t.Errorf("%q: stdout %q, want %s", tt.args, stdout, tt.want)
		}
	}
	_, stderr := runMainFlags(t, "-h", "")
	for _, want := range []string{"usage: ", " [-http ADDR [-session-prefix PREFIX]] [flags]", "\n  -greeting WORD\n    \tthe WORD to greet with (default \"Hello\")", "\n  -http ADDR\n", "\n  -session-prefix PREFIX\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-h printed\n%s\nwithout %q", stderr, want)
		}
	}
}
