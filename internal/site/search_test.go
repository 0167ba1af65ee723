package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestSearchTokens(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"The `isError` flag, the isError flag.", []string{"the", "iserror", "flag"}},
		{"tools/call: -32602", []string{"tools", "call", "32602"}},
		{"l'erreur «Outil inconnu»", []string{"l", "erreur", "outil", "inconnu"}},
		// Japanese: pairs, and each run's last character; the prolonged
		// sound mark ー belongs to the run.
		{"エラーを返す。", []string{"エラ", "ラー", "ーを", "を返", "返す", "す"}},
		{"ＭＣＰサーバー", []string{"mcp", "サー", "ーバ", "バー", "ー"}},
		{"协议错误", []string{"协议", "议错", "错误", "误"}},
		{"서버가 오류를", []string{"서버", "버가", "가", "오류", "류를", "를"}},
		// Devanagari: vowel signs and the virama are marks, inside the word.
		{"टूल त्रुटियाँ", []string{"टूल", "त्रुटियाँ"}},
		{"Ошибка ИНСТРУМЕНТА", []string{"ошибка", "инструмента"}},
		{"İSTEK ışık", []string{"istek", "ışık"}},
	}
	for _, tt := range tests {
		if got := searchTokens(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("searchTokens(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// searchIn returns the URLs of the entries of a search-<code>.js script
// that a query finds as site.js finds them: every token of the query
// begins a token of the entry.
func searchIn(t *testing.T, script []byte, query string) []string {
	t.Helper()
	js, ok := strings.CutPrefix(string(script), "window.guideSearchIndex = ")
	if !ok {
		t.Fatalf("the search script does not set window.guideSearchIndex:\n%s", script)
	}
	var entries []searchEntry
	if err := json.Unmarshal([]byte(strings.TrimSuffix(js, ";\n")), &entries); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, e := range entries {
		have := " " + e.Head + " " + e.Words
		found := true
		for _, q := range searchTokens(query) {
			found = found && strings.Contains(have, " "+q)
		}
		if found {
			urls = append(urls, e.URL)
		}
	}
	return urls
}

// scriptsDocs returns a docs tree of the page in testdata/scripts, in
// English and each of its translations there.
func scriptsDocs(t *testing.T) fstest.MapFS {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	src := make(map[string]string)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[strings.TrimSuffix(filepath.Base(f), ".md")] = string(b)
	}
	pages := []testPage{{"index", SourceLanguage, src[SourceLanguage]}}
	for lang, s := range src {
		if lang != SourceLanguage {
			pages = append(pages, testPage{"index", lang, strings.Replace(s, "---\n", "---\nsource: pending\n", 1)})
		}
	}
	docs := testDocs(t, pages...)
	for _, p := range pages[1:] {
		docs["lang/"+p.lang+".json"] = docs["lang/en.json"]
		stamp(t, docs, "index", p.lang)
	}
	return docs
}

func TestSearchEveryScript(t *testing.T) {
	s, err := Build(Config{Root: testRoot(t), Docs: scriptsDocs(t)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, query string
		want        string // the URL of the one section found, "" for none
	}{
		{"en", "isErr", "index.html#tool-errors"},
		{"en", "model reads", "index.html#tool-errors"},
		{"ja", "届き", "ja/index.html#protocol-errors"},
		{"ja", "やり直す", "ja/index.html#tool-errors"},
		{"ja", "ツールエラー", "ja/index.html#tool-errors"},
		{"zh-Hans", "重试", "zh-Hans/index.html#tool-errors"},
		{"zh-Hans", "客户端", "zh-Hans/index.html#protocol-errors"},
		{"zh-Hant", "協定", "zh-Hant/index.html#protocol-errors"},
		{"ko", "시도", "ko/index.html#tool-errors"},
		{"hi", "कोशिश", "hi/index.html#tool-errors"},
		{"hi", "क्लाइंट", "hi/index.html#protocol-errors"},
		{"ru", "попытк", "ru/index.html#tool-errors"},
		// Each language's index holds its own pages only.
		{"en", "モデル", ""},
		{"ja", "model", ""},
		{"ja", "客户端", ""},
		{"zh-Hans", "協定", ""},
		{"zh-Hant", "届き", ""},
		{"ko", "कोशिश", ""},
		{"hi", "시도", ""},
		{"ru", "重试", ""},
	}
	for _, tt := range tests {
		var want []string
		if tt.want != "" {
			want = []string{tt.want}
		}
		if got := searchIn(t, s.Files["assets/search-"+tt.lang+".js"], tt.query); !slices.Equal(got, want) {
			t.Errorf("searching %q in %s found %q, want %q", tt.query, tt.lang, got, want)
		}
	}
}
