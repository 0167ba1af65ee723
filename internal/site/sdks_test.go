package site

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
)

// sdkPage is a page with the fixture's lessons table and a section for
// each of its lessons.
const sdkPage = ":::sdks sdks/lessons.json\n\n## A tool error {#tool-error}\n\nx\n\n## A crash {#crash}\n\nx\n\n" +
	"## A cancellation {#cancel}\n\nx\n\n## A flaky case {#flaky}\n\nx\n"

// TestSDKTable checks each kind of cell of the table :::sdks renders from
// the fixture's SDK module against the chapter's pins, in HTML and in the
// Markdown twin.
func TestSDKTable(t *testing.T) {
	s := mustBuild(t, en("index", sdkPage))
	page := string(s.Files["index.html"])
	row := func(id string) string {
		_, after, ok := strings.Cut(page, `<tr><td><a href="#`+id+`">`)
		if !ok {
			t.Fatalf("the table has no row for %s:\n%s", id, page)
		}
		r, _, _ := strings.Cut(after, `</tr>`)
		return r
	}
	for _, tt := range []struct {
		id   string
		want []string
	}{
		{"tool-error", []string{
			`<code>isError &#34;Error executing tool shelve: the shelf is full&#34;</code>`,
			`<code>-32603 &#34;the shelf is full&#34;</code><br><em class="why">demo-sdk sends a handler&#39;s error as -32603, and the model never sees it.</em>`,
			`<td class="same">same as the guide</td>`,
		}},
		{"crash", []string{
			`<code>1: no reply</code><br><code>2: no reply</code><br><code>exchange: request line 1: no reply: the server closed its stdout</code><br><code>exchange: the server exited with status 2</code><br><em class="why">demo-sdk recovers no panic: the process dies.</em>`,
			`<td>—</td>`,
		}},
		{"cancel", []string{
			`<code>1: no reply</code><br><code>2: {}</code>`,
			`<code>1: -32603 &#34;context canceled&#34;</code><br><code>2: {}</code>`,
		}},
		{"flaky", []string{`<td><em>varies from run to run, so not pinned</em><br><em class="why">demo-sdk answers a ping in a different way each time.</em></td>`}},
	} {
		r := row(tt.id)
		for _, w := range tt.want {
			if !strings.Contains(r, w) {
				t.Errorf("row %s lacks %s:\n%s", tt.id, w, r)
			}
		}
	}
	if !strings.Contains(page, `<th>demo-sdk v1.2.3</th><th>demo-sdk v1.2.3, fixed</th>`) {
		t.Errorf("the header does not name the version sdks/demo/go.mod requires:\n%s", page)
	}
	md := string(s.Files["index.md"])
	for _, w := range []string{
		"| Lesson | The guide | demo-sdk v1.2.3 | demo-sdk v1.2.3, fixed |",
		"| [A tool error](#tool-error) | `isError \"Error executing tool shelve: the shelf is full\"` | `-32603 \"the shelf is full\"`<br>*demo-sdk sends a handler's error as -32603, and the model never sees it.* | same as the guide |",
		"| [A flaky case](#flaky) | `{}` | *varies from run to run, so not pinned*<br>*demo-sdk answers a ping in a different way each time.* | — |",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown twin lacks %s:\n%s", w, md)
		}
	}
}

// TestSDKTranscripts checks how an SDK's transcript shows what the
// guide's never do: requests a dying server left unanswered, its log and
// what the test saw it do, and a reply to a cancelled request.
func TestSDKTranscripts(t *testing.T) {
	s := mustBuild(t, en("index", ":::transcript sdks/demo/testdata/scripts/01-demo/calls.txtar crash\n\n"+
		":::transcript sdks/demo/testdata/scripts/01-demo/calls.txtar cancel\n"))
	page := string(s.Files["index.html"])
	for _, w := range []string{
		`id="tdemo-01-demo-calls-crash"`,
		`id="tdemo-01-demo-calls-cancel"`,
		"No response: the server sent none.",
		"What the test saw",
		"panic: the shelf fell over",
		"the server exited with status 2",
		"The server answered a request the client had cancelled.",
		"context canceled",
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if strings.Contains(page, "run-button") {
		t.Error("an SDK's transcript has a Run button, but the site runs only the guide's chapters")
	}
	if n := strings.Count(page, "No response: the server sent none."); n != 2 {
		t.Errorf("%d requests shown unanswered, want the crash case's 2", n)
	}
}

// TestSDKTableErrors checks that a lessons file that does not match the
// page or the pins fails the build, saying what to fix.
func TestSDKTableErrors(t *testing.T) {
	lessons := func(lesson string) string {
		return `{"sdks": [{"dir": "demo", "name": "demo-sdk", "module": "example.com/sdk"}], "lessons": [` + lesson + `]}`
	}
	for _, tt := range []struct {
		name, file, want string
	}{
		{"no section", lessons(`{"id": "gone", "case": "01-demo/calls.txtar#tool-error"}`),
			"lesson gone has no section on the page (add a heading {#gone})"},
		{"other requests", lessons(`{"id": "crash", "case": "01-demo/calls.txtar#crash", "mains": {"demo": {"default": "01-demo-fixed"}}}`),
			"sends other requests than testdata/scripts/01-demo/calls.txtar in case crash"},
		{"no case", lessons(`{"id": "crash", "case": "01-demo/calls.txtar#crash", "mains": {"demo": {"default": "01-demo-gone"}}}`),
			"sdks/demo/testdata/scripts/01-demo-gone/calls.txtar"},
		{"bad case", lessons(`{"id": "crash", "case": "01-demo/calls.txtar"}`),
			`case "01-demo/calls.txtar" is not <chapter>/<archive>#<case>`},
		{"unknown module", `{"sdks": [{"dir": "demo", "name": "demo-sdk", "module": "example.com/gone"}], "lessons": []}`,
			"sdks/demo/go.mod does not require example.com/gone"},
		{"not JSON", `{"sdks": [`, "sdks/lessons.json: unexpected end of JSON input"},
		{"stale version", "", "the page names demo-sdk v1.2.2, not v1.2.3, which sdks/demo/go.mod requires"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := overlay{testRoot(t), fstest.MapFS{"sdks/lessons.json": {Data: []byte(tt.file)}}}
			page := sdkPage
			if tt.file == "" {
				root, page = overlay{testRoot(t), fstest.MapFS{}}, sdkPage+"\nAs of demo-sdk v1.2.3. Since demo-sdk `v1.2.2`, it answers.\n"
			}
			_, err := Build(Config{Root: root, Docs: testDocs(t, en("index", page))})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build: %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestSDKReasons checks that every cell that differs from the guide's
// needs its reason, and that no other cell may have one: the build fails
// naming the lesson, the SDK's main and the fix, for every such cell of
// the file at once.
func TestSDKReasons(t *testing.T) {
	lesson := func(id, mains string) string {
		return `{"id": "` + id + `", "case": "01-demo/calls.txtar#` + id + `", "mains": {` + mains + `}}`
	}
	for _, tt := range []struct {
		name    string
		lessons []string
		want    []string // each an error's line
	}{
		{"unexplained difference", []string{lesson("tool-error", `"demo": {"default": "01-demo", "fix": "01-demo-fixed"}`)}, []string{
			`sdks/lessons.json: lesson tool-error: demo-sdk's main 01-demo does not answer as the guide does, and the lesson says not why: ` +
				`it answers -32603 "the shelf is full", the guide isError "Error executing tool shelve: the shelf is full" ` +
				`(give sdks/demo/01-demo the chapter's rule, in demo-sdk's way, then run go generate ./...; or, if demo-sdk cannot express it, ` +
				`say why in one line: "mains": {"demo": {"differs": {"01-demo": "…"}}})`,
		}},
		{"reason on a same cell", []string{lesson("tool-error", `"demo": {"default": "01-demo", "fix": "01-demo-fixed",
			"differs": {"01-demo": "demo-sdk sends -32603.", "01-demo-fixed": "It prefixes the text."}}`)}, []string{
			`sdks/lessons.json: lesson tool-error: demo-sdk's main 01-demo-fixed answers as the guide does, yet the lesson gives a reason it differs (remove "01-demo-fixed" from its mains.demo.differs)`,
		}},
		{"every problem at once", []string{
			lesson("tool-error", `"demo": {"default": "01-demo"}`),
			lesson("crash", `"demo": {"default": "01-demo"}`),
			lesson("flaky", `"demo": {"default": "01-demo", "differs": {"01-demo-gone": "It was removed."}}`),
		}, []string{
			`sdks/lessons.json: lesson tool-error: demo-sdk's main 01-demo does not answer as the guide does`,
			`sdks/lessons.json: lesson crash: demo-sdk's main 01-demo does not answer as the guide does, and the lesson says not why: ` +
				`it answers 1: no reply / 2: no reply / exchange: request line 1: no reply: the server closed its stdout / exchange: the server exited with status 2, the guide 1: isError`,
			`sdks/lessons.json: lesson flaky: mains.demo.differs gives a reason for "01-demo-gone", which is neither the lesson's default main nor its fix (fix the name, or remove it)`,
			`sdks/lessons.json: lesson flaky: demo-sdk's main 01-demo does not answer as the guide does, and the lesson says not why: it answers what varies from run to run (not pinned), the guide {}`,
		}},
		{"two lines", []string{lesson("crash", `"demo": {"default": "01-demo", "differs": {"01-demo": "It dies.\nAnd says nothing."}}`)}, []string{
			`sdks/lessons.json: lesson crash: the reason why demo-sdk's main 01-demo differs is more than one line (make it one)`,
		}},
		{"stale version", []string{lesson("crash", `"demo": {"default": "01-demo", "differs": {"01-demo": "demo-sdk v1.2.2 recovers no panic."}}`)}, []string{
			`sdks/lessons.json names demo-sdk v1.2.2, not v1.2.3, which sdks/demo/go.mod requires (write that version, or none)`,
		}},
		{"unknown SDK", []string{lesson("crash", `"other": {"default": "01-demo"}`)}, []string{
			`sdks/lessons.json: lesson crash has mains for "other", which is not among the file's sdks (fix the name, or add the SDK)`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := `{"sdks": [{"dir": "demo", "name": "demo-sdk", "module": "example.com/sdk"}], "lessons": [` + strings.Join(tt.lessons, ",") + `]}`
			root := overlay{testRoot(t), fstest.MapFS{"sdks/lessons.json": {Data: []byte(file)}}}
			_, err := Build(Config{Root: root, Docs: testDocs(t, en("index", sdkPage))})
			if err == nil {
				t.Fatalf("Build succeeded, want an error with %q", tt.want)
			}
			var problems int
			for l := range strings.Lines(err.Error()) {
				if strings.Contains(l, "sdks/lessons.json: ") || strings.Contains(l, "go.mod requires") {
					problems++
				}
			}
			if problems != len(tt.want) {
				t.Errorf("Build reports %d problems of the lessons, want %d:\n%v", problems, len(tt.want), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Build: %v\nwant an error with %q", err, w)
				}
			}
		})
	}
}

// TestSameAs checks the judgement of the lessons on transcripts made by
// hand: what makes a server's answers the guide's, and what does not.
func TestSameAs(t *testing.T) {
	handshake := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shelve"}}`
	welcome := func(server string) string {
		return `{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"` + server + `"}}}`
	}
	full := `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"full"}}`
	guide := &Transcript{Requests: append(handshake, call), Replies: []string{welcome("guide"), full}}
	for _, tt := range []struct {
		name string
		sdk  *Transcript
		want bool
	}{
		{"the same bytes", &Transcript{Requests: guide.Requests, Replies: guide.Replies}, true},
		{"another handshake reply", &Transcript{Requests: guide.Requests, Replies: []string{welcome("sdk"), full}}, true},
		{"names in another order", &Transcript{Requests: guide.Requests,
			Replies: []string{welcome("sdk"), `{"error":{"message":"full","code":-32603},"id":2,"jsonrpc":"2.0"}`}}, true},
		{"another reply", &Transcript{Requests: guide.Requests,
			Replies: []string{welcome("guide"), `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"full"}}`}}, false},
		{"a failure the exchange saw", &Transcript{Requests: guide.Requests, Replies: guide.Replies,
			Failing: true, Log: []string{"exchange: the server exited with status 2"}}, false},
		{"other requests", &Transcript{Requests: []string{call}, Replies: []string{full}}, false},
	} {
		if got := tt.sdk.SameAs(guide); got != tt.want {
			t.Errorf("%s: SameAs = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// legacyCase is a case of the legacy era, in the guide's archive and an
// SDK's, whose handshake each server answers with its own name:
// testdata/scripts/01-demo/legacy.txtar and the same archive of the SDK's
// mains 01-demo (whose tool error is -32603) and 01-demo-fixed (whose
// replies after the handshake are the guide's).
func legacyCase() fstest.MapFS {
	archive := func(server, reply string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("exchange req/shelve.jsonl 01-demo\npin stdout want/shelve.jsonl\n" +
			"-- req/shelve.jsonl --\n" +
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shelve","arguments":{}}}` + "\n" +
			"-- want/shelve.jsonl --\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"` + server + `","version":"1"}}}` + "\n" +
			reply + "\n")}
	}
	guide := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Error executing tool shelve: the shelf is full"}],"isError":true}}`
	return fstest.MapFS{
		"testdata/scripts/01-demo/legacy.txtar":                 archive("Bookshop", guide),
		"sdks/demo/testdata/scripts/01-demo-fixed/legacy.txtar": archive("demo", guide),
		"sdks/demo/testdata/scripts/01-demo/legacy.txtar":       archive("demo", `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"the shelf is full"}}`),
		"sdks/lessons.json": {Data: []byte(`{"sdks": [{"dir": "demo", "name": "demo-sdk", "module": "example.com/sdk"}], "lessons": [
			{"id": "shelve", "case": "01-demo/legacy.txtar#shelve", "mains": {"demo": {"default": "01-demo", "fix": "01-demo-fixed",
				"differs": {"01-demo": "demo-sdk sends a handler's error as -32603."}}}}]}`)},
	}
}

// TestSDKLegacyCase checks that a lesson whose case opens with the legacy
// handshake is judged on the replies after it, which the servers' names
// in the handshake's reply do not change, and that its row names the
// protocol version the case asks for.
func TestSDKLegacyCase(t *testing.T) {
	page := ":::sdks sdks/lessons.json\n\n## Shelving {#shelve}\n\nx\n"
	s, err := Build(Config{Root: overlay{testRoot(t), legacyCase()}, Docs: testDocs(t, en("index", page))})
	if err != nil {
		t.Fatal(err)
	}
	want := `<tr><td><a href="#shelve">Shelving</a><br><code>2025-11-25</code></td>` +
		`<td><code>isError &#34;Error executing tool shelve: the shelf is full&#34;</code></td>` +
		`<td><code>-32603 &#34;the shelf is full&#34;</code><br><em class="why">demo-sdk sends a handler&#39;s error as -32603.</em></td>` +
		`<td class="same">same as the guide</td></tr>`
	if page := string(s.Files["index.html"]); !strings.Contains(page, want) {
		t.Errorf("the page lacks the row\n%s\nin\n%s", want, page)
	}
	if md := string(s.Files["index.md"]); !strings.Contains(md, "| [Shelving](#shelve)<br>`2025-11-25` |") {
		t.Errorf("the Markdown twin's row does not name the case's version:\n%s", md)
	}
}

// requestLine is how the exchange command names a request, by its line.
var requestLine = regexp.MustCompile(`request line [0-9]+`)

// TestSDKErasAgree backs the sentence of docs/your-sdk/en.md that says
// the SDKs answer the same in both eras: for every lesson of
// sdks/lessons.json whose case is of an era's archive (modern.txtar or
// legacy.txtar), each SDK main that pins the case in the other era's
// archive too sends there what it sends in the lesson's (the legacy one
// after its handshake). When a new SDK version makes them differ, change
// the sentence, then this test.
func TestSDKErasAgree(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, sdksDir, "lessons.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ls lessons
	if err := json.Unmarshal(src, &ls); err != nil {
		t.Fatal(err)
	}
	r := newResolver(os.DirFS(repoRoot), nil)
	ui := map[string]string{"noReplyShort": "no reply"}
	otherEra := map[string]string{"modern.txtar": "legacy.txtar", "legacy.txtar": "modern.txtar"}
	compared := 0
	for _, l := range ls.Lessons {
		chapter, name, _ := strings.Cut(l.Case, "#")
		era := path.Base(chapter)
		if otherEra[era] == "" {
			continue
		}
		for sdk, m := range l.Mains {
			for _, main := range []string{m.Default, m.Fix} {
				dir := path.Join(sdksDir, sdk, scriptsDir, main)
				if main == "" || r.unpinned(path.Join(dir, era), name) || !hasCase(t, path.Join(repoRoot, dir, otherEra[era]), name) {
					continue
				}
				var said [2][]string
				for i, archive := range []string{era, otherEra[era]} {
					tr, err := r.loadTranscript(path.Join(dir, archive), name)
					if err != nil {
						t.Fatalf("lesson %s: %v", l.ID, err)
					}
					for _, l := range summarize(tr, ui).lines {
						// The legacy requests come after two lines of handshake.
						said[i] = append(said[i], requestLine.ReplaceAllString(l, "request line N"))
					}
				}
				if !slices.Equal(said[0], said[1]) {
					t.Errorf("lesson %s, %s: %s sends %q, %s %q", l.ID, dir, era, said[0], otherEra[era], said[1])
				}
				compared++
			}
		}
	}
	if compared < 20 {
		t.Errorf("compared %d cases in both eras, want the lessons' 20 or more", compared)
	}
}

// hasCase reports whether the archive file exists and has the request
// file of case name.
func hasCase(t *testing.T, file, name string) bool {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	} else if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(a.Files, func(f txtar.File) bool { return f.Name == "req/"+name+".jsonl" })
}
