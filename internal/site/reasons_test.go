package site

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// The fixture's reasons (testdata/repo/sdks/lessons.json), by key.
const (
	toolReason  = "demo-sdk sends a handler's error as -32603, and the model never sees it."
	crashReason = "demo-sdk recovers no panic: the process dies."
	toolKey     = "tool-error/demo/01-demo"
	crashKey    = "crash/demo/01-demo"
	frTool      = "demo-sdk envoie l’erreur d’un handler en -32603, et le modèle ne la voit jamais."
	frCrash     = "demo-sdk ne rattrape aucun panic : le processus meurt."
	frPage      = ":::sdks sdks/lessons.json\n\n## Une erreur d’outil {#tool-error}\n\nx\n\n## Un crash {#crash}\n\nx\n\n" +
		"## Une annulation {#cancel}\n\nx\n\n## Un cas instable {#flaky}\n\nx\n"
)

// reasonsDocs returns a docs tree of the :::sdks fixture page in English
// and French, the French page stamped and its reasons file holding
// entries, a JSON object's body (no file if ""); fr has the real French
// interface strings.
func reasonsDocs(t *testing.T, entries string) fstest.MapFS {
	t.Helper()
	docs := testDocs(t, en("index", sdkPage), translated("index", "fr", frPage))
	b, err := os.ReadFile(filepath.Join(themeDir, "lang", "fr.json"))
	if err != nil {
		t.Fatal(err)
	}
	docs["lang/fr.json"] = &fstest.MapFile{Data: b}
	if entries != "" {
		docs["index/reasons/fr.json"] = &fstest.MapFile{Data: []byte("{" + entries + "}\n")}
	}
	stamp(t, docs, "index", "fr")
	return docs
}

// entry returns a reasons file's entry for key, unstamped.
func entry(key, text string) string {
	k, _ := json.Marshal(key)
	v, _ := json.Marshal(text)
	return string(k) + `: {"text": ` + string(v) + `}`
}

// lessonsEdited returns the fixture repository with sdks/lessons.json
// edited: from replaced by to.
func lessonsEdited(t *testing.T, from, to string) fs.FS {
	t.Helper()
	b, err := fs.ReadFile(testRoot(t), "sdks/lessons.json")
	if err != nil || !strings.Contains(string(b), from) {
		t.Fatalf("sdks/lessons.json lacks %q (%v)", from, err)
	}
	return overlay{testRoot(t), fstest.MapFS{"sdks/lessons.json": {Data: []byte(strings.Replace(string(b), from, to, 1))}}}
}

// stampReasons stamps the French reasons keys in docs against root.
func stampReasons(t *testing.T, root fs.FS, docs fstest.MapFS, force bool, keys ...string) *Stamped {
	t.Helper()
	s, err := StampReasons(root, docs, "index", "fr", force, keys...)
	if err != nil {
		t.Fatal(err)
	}
	docs[s.File] = &fstest.MapFile{Data: s.Data}
	return s
}

// reasonsStatus returns how the French reasons of docs stand against
// root, as status -v names them ("" when current).
func reasonsStatus(t *testing.T, root fs.FS, docs fs.FS) string {
	t.Helper()
	list, err := Translations(docs)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddReasons(list, root, docs); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Sections[len(list[0].Sections)-1] != ReasonsSection {
		t.Fatalf("the translation's sections do not end with %s: %+v", ReasonsSection, list)
	}
	for _, b := range list[0].Behind {
		if b.ID == ReasonsSection {
			if list[0].State != Behind {
				t.Errorf("reasons behind, but the translation is %s", list[0].State)
			}
			return b.Reason()
		}
	}
	return ""
}

// TestTranslatedReasons checks that a translated page shows the
// translation of a reason that follows the English as it is, and the
// English, marked as such, of one whose English moved since it was
// stamped or that has none, in HTML and in the Markdown twin.
func TestTranslatedReasons(t *testing.T) {
	docs := reasonsDocs(t, entry(toolKey, frTool)+", "+entry(crashKey, frCrash))
	stampReasons(t, testRoot(t), docs, false)
	root := lessonsEdited(t, crashReason, "demo-sdk recovers no panic: the process dies at once.")
	s, err := Build(Config{Root: root, Docs: docs})
	if err != nil {
		t.Fatal(err)
	}
	page, md := string(s.Files["fr/index.html"]), string(s.Files["fr/index.md"])
	for _, w := range []string{
		`<em class="why">demo-sdk envoie l’erreur d’un handler en -32603, et le modèle ne la voit jamais.</em>`,
		`<em class="why" lang="en">demo-sdk recovers no panic: the process dies at once.</em> <span class="in-english-mark">(affichée en anglais)</span>`,
		`<em class="why" lang="en">demo-sdk sends what a cancelled handler returns.</em> <span class="in-english-mark">(affichée en anglais)</span>`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("fr/index.html lacks %s", w)
		}
	}
	for _, w := range []string{
		"*demo-sdk envoie l’erreur d’un handler en -32603, et le modèle ne la voit jamais.*",
		"*demo-sdk recovers no panic: the process dies at once.* (affichée en anglais)",
		"*demo-sdk answers a ping in a different way each time.* (affichée en anglais)",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("fr/index.md lacks %s:\n%s", w, md)
		}
	}
	if strings.Contains(page, frCrash) || strings.Contains(md, frCrash) {
		t.Error("the page shows a translated reason whose English moved since it was stamped")
	}
	if strings.Contains(string(s.Files["index.html"]), "in-english-mark") {
		t.Error("the English page marks a reason as shown in English")
	}

	// A table in a section shown in English shows the English reasons,
	// with no mark: the whole section is English.
	edit(t, docs, "index/en.md", ":::sdks", "Opening.\n\n:::sdks")
	edit(t, docs, "index/fr.md", ":::sdks sdks/lessons.json\n", "")
	s, err = Build(Config{Root: root, Docs: docs})
	if err != nil {
		t.Fatal(err)
	}
	page = string(s.Files["fr/index.html"])
	if !strings.Contains(page, `<em class="why">`+strings.ReplaceAll(toolReason, "'", "&#39;")+`</em>`) || strings.Contains(page, `class="why" lang="en"`) {
		t.Errorf("a table in a section shown in English is not wholly English:\n%s", page)
	}
}

// TestTranslatedReasonsNumbers checks that a translated reason whose
// numbers are not the English one's is behind, though its source names
// the English as it is: the page shows the English, status says which
// numbers differ, and stamp refuses it even with -force.
func TestTranslatedReasonsNumbers(t *testing.T) {
	wrong := strings.Replace(frTool, "-32603", "-32630", 1)
	docs := reasonsDocs(t, `"`+toolKey+`": {"source": "`+Version([]byte(toolReason))+` `+Version([]byte(wrong))+`", "text": "`+wrong+`"}`)
	s, err := Build(Config{Root: testRoot(t), Docs: docs})
	if err != nil {
		t.Fatal(err)
	}
	if page := string(s.Files["fr/index.html"]); strings.Contains(page, "-32630") {
		t.Error("fr/index.html shows a translated reason whose number differs from the English")
	}
	got := reasonsStatus(t, testRoot(t), docs)
	if want := "new (crash/demo/01-demo, cancel/demo/01-demo, flaky/demo/01-demo); numbers (tool-error/demo/01-demo: English 32603, translation 32630)"; got != want {
		t.Errorf("status: %q, want %q", got, want)
	}
	for _, force := range []bool{false, true} {
		_, err := StampReasons(testRoot(t), docs, "index", "fr", force)
		if err == nil || !strings.Contains(err.Error(), "reason tool-error/demo/01-demo: its numbers differ from the English (English 32603, translation 32630)") {
			t.Errorf("StampReasons (force %v) of a reason with another number: %v", force, err)
		}
	}
}

// TestReasonsStatusAndStamp checks status's pseudo-section reasons through
// a reasons file's life: missing, partly translated, stamped, behind an
// English edit, refused unless translated again or forced.
func TestReasonsStatusAndStamp(t *testing.T) {
	docs := reasonsDocs(t, "")
	if got := reasonsStatus(t, testRoot(t), docs); got != "new (all 4)" {
		t.Errorf("status with no reasons file: %q", got)
	}
	if _, err := StampReasons(testRoot(t), docs, "index", "fr", false); err == nil || !strings.Contains(err.Error(), "index/reasons/fr.json does not exist: translate the reasons there first") {
		t.Errorf("StampReasons with no reasons file: %v", err)
	}

	docs["index/reasons/fr.json"] = &fstest.MapFile{Data: []byte("{" + entry(crashKey, frCrash) + ", " + entry(toolKey, frTool) + ", " + entry("gone/demo/01-demo", "parti") + "}")}
	if got := reasonsStatus(t, testRoot(t), docs); got != "changed (tool-error/demo/01-demo, crash/demo/01-demo); new (cancel/demo/01-demo, flaky/demo/01-demo)" {
		t.Errorf("status with unstamped reasons: %q", got)
	}
	if _, err := StampReasons(testRoot(t), docs, "index", "fr", false, "cancel/demo/01-demo"); err == nil || !strings.Contains(err.Error(), `has no translation of reason cancel/demo/01-demo to stamp: add "cancel/demo/01-demo": {"text": "…"} first`) {
		t.Errorf("StampReasons of an untranslated reason: %v", err)
	}
	if _, err := StampReasons(testRoot(t), docs, "index", "fr", false, "nope/demo/01-demo"); err == nil || !strings.Contains(err.Error(), "index/en.md has no reason nope/demo/01-demo (its reasons: tool-error/demo/01-demo crash/demo/01-demo cancel/demo/01-demo flaky/demo/01-demo)") {
		t.Errorf("StampReasons of a reason English lacks: %v", err)
	}
	s := stampReasons(t, testRoot(t), docs, false)
	if len(s.Sections) != 2 || s.Sections[0].String() != "reasons/tool-error/demo/01-demo: (none) → "+Version([]byte(toolReason)) {
		t.Errorf("StampReasons stamped %v", s.Sections)
	}
	want := "{\n" +
		`  "tool-error/demo/01-demo": {"source": "` + Version([]byte(toolReason)) + " " + Version([]byte(frTool)) + `", "text": "` + frTool + `"},` + "\n" +
		`  "crash/demo/01-demo": {"source": "` + Version([]byte(crashReason)) + " " + Version([]byte(frCrash)) + `", "text": "` + frCrash + `"},` + "\n" +
		`  "gone/demo/01-demo": {"source": "", "text": "parti"}` + "\n}\n"
	if string(s.Data) != want {
		t.Errorf("the stamped reasons file:\n%s\nwant\n%s", s.Data, want)
	}
	if got := reasonsStatus(t, testRoot(t), docs); got != "new (cancel/demo/01-demo, flaky/demo/01-demo)" {
		t.Errorf("status once stamped: %q", got)
	}
	list, _ := Translations(docs)
	if err := AddReasons(list, testRoot(t), docs); err != nil || strings.Join(list[0].Extra, " ") != "reasons/gone/demo/01-demo" {
		t.Errorf("the reasons English no longer has: %v %v", list[0].Extra, err)
	}

	// The English moves: the reason is behind until translated again, or
	// stamped with force.
	root := lessonsEdited(t, crashReason, "demo-sdk recovers no panic: its process dies.")
	if got := reasonsStatus(t, root, docs); got != "changed (crash/demo/01-demo); new (cancel/demo/01-demo, flaky/demo/01-demo)" {
		t.Errorf("status after an English edit: %q", got)
	}
	if _, err := StampReasons(root, docs, "index", "fr", false, crashKey); err == nil ||
		!strings.Contains(err.Error(), "index/reasons/fr.json: nothing stamped:\n\treason crash/demo/01-demo: the English changed") || !strings.Contains(err.Error(), "stamp -force") {
		t.Errorf("StampReasons of a reason not translated again: %v", err)
	}
	if s := stampReasons(t, root, docs, true, crashKey); len(s.Sections) != 1 || !s.Sections[0].Forced {
		t.Errorf("StampReasons -force: %v", s.Sections)
	}
	if got := reasonsStatus(t, root, docs); got != "new (cancel/demo/01-demo, flaky/demo/01-demo)" {
		t.Errorf("status after stamp -force: %q", got)
	}
	root = lessonsEdited(t, crashReason, "demo-sdk recovers no panic: the process dies, always.")
	docs["index/reasons/fr.json"].Data = []byte(strings.Replace(string(docs["index/reasons/fr.json"].Data), "meurt.", "meurt, toujours.", 1))
	if s := stampReasons(t, root, docs, false, crashKey); len(s.Sections) != 1 || s.Sections[0].Forced {
		t.Errorf("StampReasons of a reason translated again: %v", s.Sections)
	}
}

// TestReasonsFileErrors checks that a reasons file that cannot be read
// fails the build of its page, naming the file and what an entry is.
func TestReasonsFileErrors(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{`[]`, "index/reasons/fr.json: not a JSON object"},
		{`{"a/b/c": {"text": "x"}, "a/b/c": {"text": "y"}}`, "index/reasons/fr.json: reason a/b/c is there twice"},
		{`{"a/b/c": {"source": "123", "text": "x"}}`, `index/reasons/fr.json: reason a/b/c: source "123" is not "english-version text-version"`},
		{`{"a/b/c": "x"}`, "index/reasons/fr.json: reason a/b/c: json: cannot unmarshal string"},
	} {
		docs := reasonsDocs(t, "")
		docs["index/reasons/fr.json"] = &fstest.MapFile{Data: []byte(tt.file)}
		_, err := Build(Config{Root: testRoot(t), Docs: docs})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `each entry "lesson/sdk/main": {"text": "…"}`) {
			t.Errorf("Build with reasons file %s: %v, want %q", tt.file, err, tt.want)
		}
	}
}
