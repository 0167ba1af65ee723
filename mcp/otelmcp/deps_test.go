package otelmcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoreLinksNoOpenTelemetry holds the line this package draws: package
// mcp, package mcp/client and the chapters before chapter 05 import none
// of OpenTelemetry, natively and in the browser build (GOOS=js
// GOARCH=wasm), nor does chapter 05's browser build, where its API alone would add 0.7 MB to each chapter's
// module and the SDK with the OTLP exporters 5 MB. Only a program that
// imports this package pays for it.
func TestCoreLinksNoOpenTelemetry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	chapters, err := filepath.Glob(filepath.Join(root, "chapters", "0[1-4]-*"))
	if err != nil || len(chapters) != 4 {
		t.Fatalf("chapters 01 to 04: found %v (%v)", chapters, err)
	}
	pkgs := []string{"./mcp", "./mcp/client"}
	for _, ch := range chapters {
		pkgs = append(pkgs, "./chapters/"+filepath.Base(ch))
	}
	deps := func(env []string, pkgs ...string) []string {
		t.Helper()
		cmd := exec.Command(goTool, append([]string{"list", "-deps"}, pkgs...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go list -deps %s (%s): %v\n%s", strings.Join(pkgs, " "), strings.Join(env, " "), err, stderr)
		}
		return strings.Fields(string(out))
	}
	otel := func(list []string) []string {
		var found []string
		for _, p := range list {
			if strings.HasPrefix(p, "go.opentelemetry.io/") {
				found = append(found, p)
			}
		}
		return found
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		if found := otel(deps(env, pkgs...)); len(found) > 0 {
			t.Errorf("%s %s link OpenTelemetry (%s): keep it in package otelmcp, which they must not import",
				strings.Join(env, " "), strings.Join(pkgs, " "), strings.Join(found, ", "))
		}
	}
	// Chapter 05 traces with it, natively; its browser build leaves
	// tracing.go out, so the page's module links none of it either.
	if found := otel(deps([]string{"GOOS=js", "GOARCH=wasm"}, "./chapters/05-two-readers")); len(found) > 0 {
		t.Errorf("chapter 05's browser build links OpenTelemetry (%s): keep it in tracing.go, which the build leaves out", strings.Join(found, ", "))
	}
	// The check can fail: this package itself does link it.
	if found := otel(deps(nil, "./mcp/otelmcp")); len(found) == 0 {
		t.Error("go list -deps finds no OpenTelemetry package under otelmcp: the check above checks nothing")
	}
}
