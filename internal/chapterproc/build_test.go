package chapterproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpbookshop/guide/internal/exchange"
	"github.com/mcpbookshop/guide/internal/lockstep"
)

// binaries are the chapters the tests build, removed by TestMain.
var binaries Binaries

// TestMain removes the chapters' binaries after the tests, or makes the
// test binary a fake chapter serving HTTP when its arguments say so.
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "-http" && os.Args[3] == fakeHTTPArg {
		os.Exit(fakeHTTP())
	}
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}

// needGo skips t when the go command, which builds the chapters, is
// missing.
func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the chapters:", err)
	}
}

// TestList: the chapters are the directories of chapters/, in order, each
// a main package.
func TestList(t *testing.T) {
	chapters, err := List()
	if err != nil {
		t.Fatal(err)
	}
	if len(chapters) == 0 || chapters[0] != "01-tool-errors" || !slices.IsSorted(chapters) {
		t.Errorf("List() = %q, want the directories of chapters/ in order, 01-tool-errors first", chapters)
	}
	for _, ch := range chapters {
		if _, err := os.Stat(filepath.Join("..", "..", "chapters", ch, "main.go")); err != nil {
			t.Errorf("chapter %s: %v", ch, err)
		}
	}
}

// TestModuleSources: a chapter's sources are its own files and those of the
// module's packages it imports, with the files their build constraints
// leave out, go.mod and go.sum; not its tests, nor anything of the standard
// library or of other modules.
func TestModuleSources(t *testing.T) {
	needGo(t)
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		files, err := ModuleSources(t.Context(), root, env, "./chapters/01-tool-errors")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"chapters/01-tool-errors", "chapters/01-tool-errors/main.go", "mcp", "mcp/errortable.go", "mcp/main_js.go", "go.mod", "go.sum"} {
			if !slices.Contains(files, filepath.Join(root, filepath.FromSlash(want))) {
				t.Errorf("%v: no %s among the sources %q", env, want, files)
			}
		}
		for _, f := range files {
			if !strings.HasPrefix(f, root+string(filepath.Separator)) || strings.HasSuffix(f, "_test.go") {
				t.Errorf("%v: source %s is outside the module or a test", env, f)
			}
		}
	}
	if _, err := ModuleSources(t.Context(), root, nil, "fmt"); err == nil || !strings.Contains(err.Error(), "no package of this module") {
		t.Errorf("the sources of fmt: %v, want an error saying that no package of this module is among them", err)
	}
}

// TestBuildNamesNoChapter: Build with no chapter says what to pass.
func TestBuildNamesNoChapter(t *testing.T) {
	if err := Build(t.Context(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "List()") {
		t.Errorf("Build with no chapter: %v, want an error naming List()", err)
	}
}

// TestBuiltChaptersAnswerAsPinned runs each chapter as Binaries builds it
// (a subprocess's go build, which the test cache sees only through
// Record) on every case of its modern-era script, and compares what it
// prints with the pinned replies. It is also the test that
// TestCacheSeesChanges runs in a copy of the module.
func TestBuiltChaptersAnswerAsPinned(t *testing.T) {
	needGo(t)
	chapters, err := List()
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chapters {
		t.Run(ch, func(t *testing.T) {
			path, err := binaries.Path(ch)
			if err != nil {
				t.Fatal(err)
			}
			archive := filepath.Join("..", "..", "testdata", "scripts", ch, "modern.txtar")
			exchanges, err := exchange.Exchanges(archive)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range exchanges {
				var got, stderr bytes.Buffer
				cmd := exec.Command(path)
				cmd.Stderr = &stderr
				err := lockstep.Run(t.Context(), cmd, strings.Split(string(x.Requests), "\n"), lockstep.ReplyTimeout, func(line []byte) { got.Write(line) })
				if err != nil || !bytes.Equal(got.Bytes(), x.Replies) {
					t.Errorf("%s, built by go build: %v\n%s\npinned:\n%s\nthe chapter's stderr:\n%s\n%s", x.Name, err, got.Bytes(), x.Replies, stderr.Bytes(), exchange.PinHelp(archive, "want/"+x.Name+".jsonl"))
				}
			}
		})
	}
}
