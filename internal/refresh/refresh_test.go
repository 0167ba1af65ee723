package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// root is the repository, from this package's folder.
const root = "../.."

// TestInputs checks that an archive's inputs are its script and the
// sections no pin command writes, and that a pin does not count.
func TestInputs(t *testing.T) {
	ar := txtar.Format(&txtar.Archive{
		Comment: []byte("exchange req/a.jsonl 01-tool-errors\npin stdout want/a.jsonl\npin stderr log/a.log\n"),
		Files: []txtar.File{
			{Name: "req/a.jsonl", Data: []byte("{}\n")},
			{Name: "want/a.jsonl", Data: []byte("{\"result\":1}\n")},
			{Name: "log/a.log", Data: []byte("time=<time> level=INFO\n")},
		},
	})
	in, pins := inputs(ar)
	if pins != 2 {
		t.Errorf("inputs counts %d pins, want 2", pins)
	}
	if !strings.Contains(in, "-- req/a.jsonl --\n{}\n") || strings.Contains(in, "-- want/") || strings.Contains(in, "-- log/") {
		t.Errorf("inputs kept\n%s\nwant the script and req/a.jsonl alone", in)
	}
	repinned := strings.Replace(string(ar), `{"result":1}`, `{"result":2}`, 1)
	if in2, _ := inputs([]byte(repinned)); in2 != in {
		t.Errorf("a changed pin changed the inputs:\n%s", in2)
	}
	asked := strings.Replace(string(ar), "-- req/a.jsonl --\n{}", "-- req/a.jsonl --\n{\"id\":2}", 1)
	if in3, _ := inputs([]byte(asked)); in3 == in {
		t.Error("a changed request left the inputs as they were")
	}
}

// TestKeysFollowContent checks that a key names content and paths from the
// root, so that two copies of a repository share keys, and that any change
// to a file's bytes changes it.
func TestKeysFollowContent(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	for _, dir := range []string{one, two} {
		if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a", "main.go"), []byte("package main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func(dir string) string {
		t.Helper()
		h := &hasher{root: dir}
		k, err := h.key("test", []string{"script"}, []string{filepath.Join(dir, "a"), filepath.Join(dir, "go.sum")})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if key(one) != key(two) {
		t.Error("two copies of the same files have different keys")
	}
	if err := os.WriteFile(filepath.Join(two, "a", "main.go"), []byte("package main // edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if key(one) == key(two) {
		t.Error("an edit left the key as it was")
	}
	if err := os.WriteFile(filepath.Join(one, "go.sum"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if k := key(one); k == key(two) {
		t.Error("a new file left the key as it was")
	}
}

// TestRefreshArchiveFromCache checks that an archive whose key the cache
// holds is written from it, and one it does not hold is left alone.
func TestRefreshArchiveFromCache(t *testing.T) {
	c := &cache{dir: t.TempDir()}
	file := filepath.Join(t.TempDir(), "modern.txtar")
	if err := os.WriteFile(file, []byte("old pins\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &archive{file: file, key: "k1"}
	if hit, changed, err := refreshArchive(c, a); hit || changed || err != nil {
		t.Fatalf("with an empty cache: hit %v, changed %v, %v; want a miss", hit, changed, err)
	}
	if err := c.put("k1", []byte("new pins\n")); err != nil {
		t.Fatal(err)
	}
	if hit, changed, err := refreshArchive(c, a); !hit || !changed || err != nil {
		t.Fatalf("with the key cached: hit %v, changed %v, %v; want the file written", hit, changed, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "new pins\n" {
		t.Errorf("the archive holds %q, want the cached pins", b)
	}
	if hit, changed, err := refreshArchive(c, a); !hit || changed || err != nil {
		t.Errorf("again: hit %v, changed %v, %v; want a hit that writes nothing", hit, changed, err)
	}
}

// TestEveryPinningPackageIsRefreshed checks that go generate ./... refreshes
// every package whose tests write files with -update: each is a main whose
// archives findArchives finds, or a step (internal/exchange's own tests
// and this package's pin temporary archives only). And this command's is the only go:generate
// line go generate ./... runs, so that it stays one process.
func TestEveryPinningPackageIsRefreshed(t *testing.T) {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	archives, err := findArchives(abs)
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{filepath.Join(abs, "internal", "exchange"): true, here: true}
	for _, a := range archives {
		covered[a.main] = true
	}
	for _, s := range steps {
		covered[filepath.Join(abs, filepath.FromSlash(s.pkg))] = true
	}
	var pinning []string
	err = filepath.WalkDir(abs, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != abs && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, sign := range []string{"exchange.Run(t", "exchange.RunDir(t", "exchange.Updating()", `flag.Bool("update"`, `flag.Lookup("update")`} {
			if strings.Contains(string(src), sign) {
				pinning = append(pinning, filepath.Dir(path))
				if !covered[filepath.Dir(path)] {
					t.Errorf("%s: its tests write files with -update (%s), but go generate ./... does not run them: add its archives to testdata/scripts, or a step to internal/refresh", rel(abs, path), sign)
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pinning) < 8 {
		t.Errorf("found %d packages that pin output (%v), want the five chapters, the SDKs' mains, cmd/mcpc, mcp and internal/site at least", len(pinning), pinning)
	}

	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is needed to check what go generate runs:", err)
	}
	cmd := exec.Command(goTool, "generate", "-n", "./...")
	cmd.Dir = abs
	out, err := cmd.CombinedOutput()
	if got, want := strings.TrimSpace(string(out)), "go run -trimpath ."; err != nil || got != want {
		t.Errorf("go generate -n ./... prints %q (%v), want this command's line alone, %q", got, err, want)
	}
}
