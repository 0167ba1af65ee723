package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// reasonsRoot is a repository root whose lessons file gives one reason.
var reasonsRoot = fstest.MapFS{"sdks/lessons.json": {Data: []byte(`{"sdks": [{"dir": "demo", "name": "demo-sdk"}], "lessons": [
	{"id": "wire", "case": "01-demo/calls.txtar#wire", "mains": {"demo": {"default": "01-demo", "differs": {"01-demo": "demo-sdk answers -32603."}}}}]}`)}}

// TestStatusReasons checks, through the commands, that a page's SDK
// reasons count as its section reasons: behind, so that status -check
// fails, until translated and stamped with go run ./docs stamp LANG PAGE
// reasons.
func TestStatusReasons(t *testing.T) {
	dir := statusDocs(t)
	editFile(t, dir, "index/en.md", "On the wire.", "On the wire.\n\n:::sdks sdks/lessons.json")
	editFile(t, dir, "index/fr.md", "Sur le fil.", "Sur le fil.\n\n:::sdks sdks/lessons.json")
	var out strings.Builder
	if err := stamp(&out, reasonsRoot, dir, []string{"fr", "index", "wire"}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err := status(&out, reasonsRoot, os.DirFS(dir), []string{"-v", "-check"})
	if !errors.Is(err, errBehind) || !strings.Contains(out.String(), "fr          1/1        2       1        0\n") ||
		!strings.HasSuffix(out.String(), "\n  index#reasons  new (wire/demo/01-demo)  fr\n") {
		t.Errorf("status -v -check with an untranslated reason: %v\n%s", err, out.String())
	}

	file := filepath.Join(dir, "index", "reasons", "fr.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"wire/demo/01-demo": {"text": "demo-sdk répond -32603."}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := stamp(&out, reasonsRoot, dir, []string{"fr", "index", "reasons"}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(out.String(), "\n"); len(lines) != 3 || lines[0] != "Stamped docs/index/reasons/fr.json:" || !strings.HasPrefix(lines[1], "  reasons/wire/demo/01-demo: (none) → ") {
		t.Errorf("stamp fr index reasons printed:\n%s", out.String())
	}
	out.Reset()
	if err := status(&out, reasonsRoot, os.DirFS(dir), []string{"-check"}); err != nil || !strings.Contains(out.String(), "fr          1/1        3       0        0\n") {
		t.Errorf("status -check once the reason is stamped: %v\n%s", err, out.String())
	}

	// Stamping the whole page stamps its reasons too, and refuses both if
	// a reason was not translated again after its English moved.
	editFile(t, dir, "index/en.md", "On the wire.", "On the wire, edited.")
	editFile(t, dir, "index/fr.md", "Sur le fil.", "Sur le fil, revu.")
	root := fstest.MapFS{"sdks/lessons.json": {Data: []byte(strings.Replace(string(reasonsRoot["sdks/lessons.json"].Data), "answers", "sends", 1))}}
	out.Reset()
	if err := stamp(&out, root, dir, []string{"fr", "index"}); err == nil || !strings.Contains(err.Error(), "reason wire/demo/01-demo: the English changed") {
		t.Errorf("stamp fr index with a reason not translated again: %v", err)
	}
	out.Reset()
	if err := stamp(&out, root, dir, []string{"-force", "fr", "index"}); err != nil ||
		!strings.Contains(out.String(), "Stamped docs/index/fr.md:\n  (top): ") || !strings.Contains(out.String(), "Stamped docs/index/reasons/fr.json:\n  reasons/wire/demo/01-demo: ") {
		t.Errorf("stamp -force fr index: %v\n%s", err, out.String())
	}
}
