package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// noLessons is a repository root with no lessons files, for docs trees
// with no :::sdks table.
var noLessons = fstest.MapFS{}

// statusDocs writes a docs tree of one page in English and French, the
// French recorded as following the English as it is, into a temporary
// folder, and returns it.
func statusDocs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pages.txt":    "index\n",
		"index/en.md":  "---\ntitle: Index\n---\n\nOpening.\n\n## Wire {#wire}\n\nOn the wire.\n",
		"index/fr.md":  "---\ntitle: Accueil\nsource: pending\n---\n\nOuverture.\n\n## Fil {#wire}\n\nSur le fil.\n",
		"lang/en.json": `{"name": "English", "ui": {"site": "Guide"}}`,
		"lang/fr.json": `{"name": "Français", "ui": {"site": "Guide"}}`,
	}
	for name, data := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := stamp(&out, noLessons, dir, []string{"fr", "index"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// editFile replaces from by to in the file name under dir.
func editFile(t *testing.T, dir, name, from, to string) {
	t.Helper()
	file := filepath.Join(dir, filepath.FromSlash(name))
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), from) {
		t.Fatalf("%s lacks %q (%v)", name, from, err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestStatus(t *testing.T) {
	dir := statusDocs(t)
	run := func(args ...string) (string, error) {
		var out strings.Builder
		err := status(&out, noLessons, os.DirFS(dir), args)
		return out.String(), err
	}
	if out, err := run("-check"); err != nil || out != "language  pages  current  behind  missing\nfr          1/1        2       0        0\nEvery translated section follows the English as it is.\n" {
		t.Errorf("status -check of current translations: %v\n%s", err, out)
	}
	if out, err := run("-h"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out, "By default, status prints one line per language") {
		t.Errorf("status -h: %v\n%s", err, out)
	}

	editFile(t, dir, "index/en.md", "On the wire.", "On the wire, edited.")
	out, err := run()
	if err != nil || !strings.HasSuffix(out, "fr          1/1        1       1        0\n1 section is behind English (go run ./docs status -v lists them).\n") {
		t.Errorf("status with a section behind: %v\n%s", err, out)
	}
	out, err = run("-v")
	if err != nil || !strings.HasSuffix(out, "\nBehind (translate each, then go run ./docs stamp LANG PAGE SECTION):\n  index#wire  changed  fr\n") {
		t.Errorf("status -v: %v\n%s", err, out)
	}
	_, err = run("-check")
	if !errors.Is(err, errBehind) || !strings.Contains(err.Error(), "1 section is behind English (go run ./docs status -v lists them): translate each, then record it with go run ./docs stamp LANG PAGE SECTION") {
		t.Errorf("status -check with a section behind: %v", err)
	}
	if _, err := run("extra"); err == nil || errors.Is(err, errBehind) {
		t.Errorf("status extra: %v", err)
	}
}

func TestStamp(t *testing.T) {
	dir := statusDocs(t)
	editFile(t, dir, "index/en.md", "On the wire.", "On the wire, edited.")
	var out strings.Builder
	err := stamp(&out, noLessons, dir, []string{"fr", "index", "wire"})
	if err == nil || !strings.Contains(err.Error(), "index/fr.md: nothing stamped:\n\tsection wire: the English changed") || !strings.Contains(err.Error(), "stamp -force") {
		t.Errorf("stamp of an untranslated section: %v", err)
	}
	if err := stamp(&out, noLessons, dir, []string{"fr", "index", "-force"}); err == nil || !strings.Contains(err.Error(), "put flags first") {
		t.Errorf("stamp with a flag last: %v", err)
	}
	editFile(t, dir, "index/fr.md", "Sur le fil.", "Sur le fil, revu.")
	out.Reset()
	if err := stamp(&out, noLessons, dir, []string{"fr", "index", "wire"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != 3 || lines[0] != "Stamped docs/index/fr.md:" || !strings.HasPrefix(lines[1], "  wire: ") || !strings.Contains(lines[1], " → ") {
		t.Errorf("stamp printed:\n%s", out.String())
	}
	var st strings.Builder
	if err := status(&st, noLessons, os.DirFS(dir), []string{"-check"}); err != nil {
		t.Errorf("after stamping: %v\n%s", err, st.String())
	}

	// -force stamps a section whose translation did not change.
	editFile(t, dir, "index/en.md", "edited.", "edited again.")
	out.Reset()
	if err := stamp(&out, noLessons, dir, []string{"-force", "fr", "index"}); err != nil || !strings.Contains(out.String(), "(forced: its text did not change)") {
		t.Errorf("stamp -force: %v\n%s", err, out.String())
	}
}

// TestStaleNumbers checks, on a copy of the guide's pages, that the
// German, Russian and Ukrainian chapter 05 sections that kept the 7,3 MB
// the English once said, under a record naming the English as it is now
// (as stamp -force wrote it before numbers were checked), are behind until
// mended, and that stamp refuses them even with -force.
func TestStaleNumbers(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	stale := map[string]string{"de": "7\u00a0MB)", "ru": "7\u00a0МБ)", "uk": "7\u00a0МБ)"}
	var out strings.Builder
	for lang, size := range stale {
		// Recorded as following the English as it is (whatever English
		// edits landed since), the section then gets back its old size.
		if err := stamp(&out, os.DirFS(".."), dir, []string{"-force", lang, "two-readers", "traces"}); err != nil {
			t.Fatal(err)
		}
		editFile(t, dir, "two-readers/"+lang+".md", size, "7,3"+strings.TrimPrefix(size, "7"))
	}
	out.Reset()
	err := status(&out, os.DirFS(".."), os.DirFS(dir), []string{"-v", "-check"})
	// The columns' widths depend on the other sections behind, if any.
	behind := regexp.MustCompile(`\n  two-readers#traces +numbers \(English 7, translation 7,3\) +de ru uk\n`)
	if !errors.Is(err, errBehind) || !behind.MatchString(out.String()) {
		t.Errorf("status -v -check with 7,3 MB: %v\n%s", err, out.String())
	}
	for lang := range stale {
		out.Reset()
		err := stamp(&out, os.DirFS(".."), dir, []string{"-force", lang, "two-readers", "traces"})
		if err == nil || !strings.Contains(err.Error(), "section traces: its numbers differ from the English (English 7, translation 7,3)") {
			t.Errorf("stamp -force %s two-readers traces: %v", lang, err)
		}
	}

	for lang, size := range stale {
		editFile(t, dir, "two-readers/"+lang+".md", "7,3"+strings.TrimPrefix(size, "7"), size)
	}
	out.Reset()
	if err := status(&out, os.DirFS(".."), os.DirFS(dir), []string{"-v"}); err != nil || regexp.MustCompile(`two-readers#traces +numbers`).MatchString(out.String()) {
		t.Errorf("status -v once mended: %v\n%s", err, out.String())
	}
}
