package site

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNumbersIn(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string // written=key
	}{
		{"about 7.3 MB", []string{"7.3=7.3"}},
		{"etwa 7,3\u00a0MB", []string{"7,3=7.3"}},
		{"1,000 or 1.000 or 1\u00a0000 or 1\u202f000 or 1\u2009000 or 1'000 or 1’000 or 1000", []string{
			"1,000=1000", "1.000=1000", "1\u00a0000=1000", "1\u202f000=1000", "1\u2009000=1000", "1'000=1000", "1’000=1000", "1000=1000"}},
		{"1 234 567 requests", []string{"1 234 567=1234567"}},
		{"1,234.5 and 1 234,5", []string{"1,234.5=1.234.5", "1 234,5=1.234.5"}},
		{"2025 100 servers, 5 and 100, page 12 3456", []string{"2025=2025", "100=100", "5=5", "100=100", "12=12", "3456=3456"}},
		{"0.250 s, not 250 ms", []string{"0.250=0.250", "250=250"}},
		{"version 1.0.17 of Go 1.26", []string{"1.0.17=1.0.17", "1.26=1.26"}},
		{"chapter 05 on 2026-07-28", []string{"05=5", "2026=2026", "07=7", "28=28"}},
		{"issue 1804，2025 年 6 月", []string{"1804=1804", "2025=2025", "6=6"}},
		{"７ and ७.३ and ٧,٣", []string{"７=7", "७.३=7.3", "٧,٣=7.3"}},
		{"utf8, E42, HTTP 404, -32602.", []string{"8=8", "42=42", "404=404", "32602=32602"}},
		{"no numbers, seven or sieben or 七", nil},
	} {
		var got []string
		for _, n := range numbersIn(tt.text) {
			got = append(got, n.written+"="+n.key)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("numbersIn(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

func TestProse(t *testing.T) {
	text := "## Traces {#t2}\n\nAbout 7 MB, `limit=50`, ``a ` 9 `` and `2\n3` spans, [chapter 4](handler-failures.html#t04 \"4\"), a stray ` 5.\n\n" +
		":::transcript 05-two-readers modern 6\n\n```go\nx := 8\n```\n\n~~~\n10\n~~~\n"
	got := prose(text)
	var keys []string
	for _, n := range numbersIn(got) {
		keys = append(keys, n.key)
	}
	if want := []string{"7", "4", "5"}; !slices.Equal(keys, want) {
		t.Errorf("numbers of the prose %q = %q, want %q", got, keys, want)
	}
}

// sectionOf returns the section that a page of the one paragraph text
// makes.
func sectionOf(text string) *section {
	return &splitSections("t", "", []byte(text))[0]
}

func TestDiffNumbers(t *testing.T) {
	for _, tt := range []struct {
		en, tr, want string // want: "" when they agree
	}{
		{"about 7.3 MB", "etwa 7,3\u00a0MB", ""},
		{"about 7 MB", "etwa 7,3\u00a0MB", "English 7, translation 7,3"},
		{"about 7 MB", "около 7,3 МБ", "English 7, translation 7,3"},
		{"1,000 authors, 10 at most, in 1 KiB", "1 000 auteurs, au plus 10, en 1 Kio", ""},
		{"1,000 authors", "1.000 Autoren", ""},
		{"three processes, a restart, for a second", "3 つのプロセス、1 回の再起動、1 秒", ""},
		{"issue 1804, June 2025", "issue 1804，2025 年 6 月", ""},
		{"chapter 04's tool; the chapter's script", "04 章のツール、04 章のスクリプト", ""},
		{"Claude Code 1.0.17", "Claude Code 1.0.18", "English 1.0.17, translation 1.0.18"},
		{"seven MB", "7 MB", ""},
		{"until March 2026; it may fail", "2026 年 3 月まで", ""},
		{"it may fail", "5 回", "English none, translation 5"},
		{"7 MB", "sieben MB", "English 7, translation none"},
		{"no number", "2 つ", "English none, translation 2"},
		{"7 and 7", "7,3 und 7,3", "English 7, translation 7,3"},
	} {
		d := diffNumbers(sectionOf(tt.en), sectionOf(tt.tr))
		got := ""
		if d != nil {
			got = d.String()
		}
		if got != tt.want {
			t.Errorf("diffNumbers(%q, %q) = %q, want %q", tt.en, tt.tr, got, tt.want)
		}
	}
}

// TestNumbersBehind checks that a section whose numbers differ from the
// English is behind in status and in the built page, whatever its record
// says, and that stamp refuses it, forced or not, until it is mended.
func TestNumbersBehind(t *testing.T) {
	docs := testDocs(t, en("index", "Opening.\n\n## Size {#size}\n\nAbout 7.3 MB.\n"), translated("index", "de", "Eröffnung.\n\n## Größe {#size}\n\nEtwa 7,3\u00a0MB.\n"))
	docs["lang/de.json"] = docs["lang/en.json"]
	stamp(t, docs, "index", "de")
	if got := behindOf(t, docs, "index", "de"); got != "" {
		t.Fatalf("7.3 and 7,3: %s behind, want none", got)
	}

	// English moves to 7 MB. Stamping the German as it is is refused, even
	// with -force, for its numbers.
	edit(t, docs, "index/en.md", "About 7.3 MB.", "About 7 MB.")
	_, err := StampPage(docs, "index", "de", true, "size")
	if err == nil || !strings.Contains(err.Error(), "index/de.md: nothing stamped:\n\tsection size: its numbers differ from the English (English 7, translation 7,3)\n") ||
		!strings.Contains(err.Error(), "-force stamps no section whose numbers differ") {
		t.Errorf("StampPage -force of a stale number: %v", err)
	}

	// A record that names the English as it is (as -force wrote before
	// numbers were checked) does not make the section current.
	old := sectionVersion(t, docs, "index/de.md", "size")
	edit(t, docs, "index/de.md", "size: "+old, "size: "+sectionVersion(t, docs, "index/en.md", "size"))
	if got := behindOf(t, docs, "index", "de"); got != "size:numbers" {
		t.Errorf("a stale number recorded current: %q behind, want size:numbers", got)
	}
	list, err := Translations(docs)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if n, err := WriteStatus(&out, list, true); err != nil || n != 1 || !strings.HasSuffix(out.String(), "\n  index#size  numbers (English 7, translation 7,3)  de\n") {
		t.Errorf("status -v (%d behind, %v):\n%s", n, err, out.String())
	}
	de := string(buildDocs(t, docs).Files["de/index.html"])
	if !strings.Contains(bannerOf(de), `<a href="#size">Größe</a>`) || !regexp.MustCompile(`id="size".*</h2>\n?<p class="section-behind" role="note">[^<]*<a href="../index.html#size"`).MatchString(de) || !strings.Contains(de, "Etwa 7,3") {
		t.Errorf("the built page does not mark the section with a stale number behind:\n%s", de)
	}

	// Mended, it is current, and stamps.
	edit(t, docs, "index/de.md", "Etwa 7,3", "Etwa 7")
	if got := behindOf(t, docs, "index", "de"); got != "" {
		t.Errorf("mended: %s behind", got)
	}
	stamp(t, docs, "index", "de", "size")
}

// sectionVersion returns the version of section id of the page file in
// docs: for a translation, the English version its record names.
func sectionVersion(t *testing.T, docs fstest.MapFS, file, id string) string {
	t.Helper()
	meta, body, err := frontMatter(docs[file].Data)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(file, "/en.md") {
		for _, s := range splitSections(meta["title"], meta["summary"], body) {
			if s.id == id {
				return s.version
			}
		}
		t.Fatalf("%s has no section %s", file, id)
	}
	rec, err := parseRecord(meta["source"])
	if err != nil {
		t.Fatal(err)
	}
	return rec[id].english
}
