package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/mcpbookshop/guide/internal/lockstep"
	"github.com/rogpeppe/go-internal/txtar"
)

// scriptsDir is where the testscript archives live, one directory per
// chapter, named as the chapter's directory under chaptersDir. The SDK
// modules under sdksDir keep theirs in the same place of their own module,
// one directory per main: sdks/<module>/testdata/scripts/<main>.
const (
	scriptsDir  = "testdata/scripts"
	chaptersDir = "chapters"
	sdksDir     = "sdks"
)

// Transcript is one case of a testscript archive: the requests a client sent,
// one a line, and the replies the archive pins for them.
type Transcript struct {
	// Archive is the archive's path in the repository.
	Archive string
	// Case names the case: its files are req/<case>.jsonl and want/<case>.jsonl.
	Case string
	// Chapter is the directory of the chapter whose server the archive runs,
	// or "" if the archive is not a chapter's.
	Chapter string
	// Requests are the lines of req/<case>.jsonl.
	Requests []string
	// Replies are the lines of want/<case>.jsonl.
	Replies []string
	// Check is the script line that checks the replies: pin stdout
	// want/<case>.jsonl, or testscript's cmp stdout want/<case>.jsonl.
	Check string
	// Args are the arguments the script runs the chapter with for this
	// case, such as -leak; a case with some gets no Run button, since the
	// page runs the chapter as it is.
	Args []string
	// SDK is the module under sdksDir whose archive this is, such as
	// "gosdk", or "" for the guide's own archives.
	SDK string
	// Failing reports a case the script runs with "! exchange": the server
	// dies, hangs or leaves a request unanswered, so a request may have no
	// pinned reply.
	Failing bool
	// Log is the pinned log, log/<case>.log, of a Failing case, shown under
	// it: what the server wrote as it failed (a panic's first frame, a fatal
	// error), then the lines in which the exchange command says what the
	// server failed to do (Outcome).
	Log []string
}

// Outcome returns the lines of t's Log in which the exchange command says
// what the server failed to do, such as "exchange: the server exited with
// status 2".
func (t *Transcript) Outcome() []string {
	var out []string
	for _, l := range t.Log {
		if strings.HasPrefix(l, "exchange: ") {
			out = append(out, l)
		}
	}
	return out
}

// Key identifies the transcript in the site: archive#case.
func (t *Transcript) Key() string { return t.Archive + "#" + t.Case }

// ID is the transcript's anchor: the chapter's number, the archive's name and
// the case, as in t01-modern-unknown-title. An SDK's transcript names the
// module and the whole main, as in tgosdk-01-tool-errors-prefix-modern-tool-error.
func (t *Transcript) ID() string {
	dir := path.Base(path.Dir(t.Archive))
	if t.SDK == "" {
		dir, _, _ = strings.Cut(dir, "-")
	} else {
		dir = t.SDK + "-" + dir
	}
	return "t" + dir + "-" + strings.TrimSuffix(path.Base(t.Archive), ".txtar") + "-" + t.Case
}

// exchange is one request and its pinned reply ("" for none); cancelled
// reports a request that a later line cancels, which is owed no reply, and
// owed a request that is owed one.
type exchange struct {
	request, reply  string
	cancelled, owed bool
}

// note returns the key of the UI text shown under e's request in place of
// a reply, or beside it: "" for a reply that needs none.
func (e *exchange) note() string {
	switch {
	case e.cancelled && e.reply != "":
		return "repliedCancelled"
	case e.cancelled:
		return "noReplyCancelled"
	case e.reply != "":
		return ""
	case e.owed:
		return "noReplyServer"
	}
	return "noReply"
}

// exchanges pairs t's requests with its replies, in order. A reply whose
// id is not its request's is the next request's when the case is one
// that fails (Failing), where a request may have none; a reply left over
// answers a request that a later line cancelled, which some servers do.
func (t *Transcript) exchanges() ([]exchange, error) {
	var ex []exchange
	replies := t.Replies
	owed := lockstep.OwedReplies(t.Requests)
	for i, req := range t.Requests {
		e := exchange{request: req, owed: owed[i], cancelled: !owed[i] && lockstep.ExpectsReply([]byte(req))}
		if owed[i] {
			switch {
			case len(replies) > 0 && (!t.Failing || answers(replies[0], req)):
				e.reply, replies = replies[0], replies[1:]
			case !t.Failing:
				return nil, fmt.Errorf("request %s has no pinned reply", req)
			}
		}
		ex = append(ex, e)
	}
	for _, reply := range replies {
		i := slices.IndexFunc(ex, func(e exchange) bool { return e.cancelled && e.reply == "" && answers(reply, e.request) })
		if i < 0 {
			return nil, fmt.Errorf("pinned reply %s answers no request", reply)
		}
		ex[i].reply = reply
	}
	return ex, nil
}

// answers reports whether reply may answer request: their ids are the
// same, or either has none that can be read (a reply to a line that is not
// JSON has id null; a batch's reply is an array).
func answers(reply, request string) bool {
	r, ok := lockstep.ID([]byte(reply))
	q, ok2 := lockstep.ID([]byte(request))
	return !ok || !ok2 || r == q
}

// loadTranscript reads and checks one case of an archive, once a build. A
// case read only to be compared (:::sdks) is not one the site shows: the
// transcript directive records those in r.transcripts.
func (r *resolver) loadTranscript(archive, name string) (*Transcript, error) {
	t := &Transcript{Archive: archive, Case: name}
	if cached, ok := r.loaded[t.Key()]; ok {
		return cached, nil
	}
	sdk, ok := scriptsOf(archive)
	if !ok {
		return nil, fmt.Errorf("%s: not a testscript archive under %s or %s/<module>/%s", archive, scriptsDir, sdksDir, scriptsDir)
	}
	t.SDK = sdk
	src, err := r.readFile(archive)
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(src)
	reqFile, wantFile := "req/"+name+".jsonl", "want/"+name+".jsonl"
	files := make(map[string][]byte)
	for _, f := range a.Files {
		files[f.Name] = f.Data
	}
	if files[reqFile] == nil {
		return nil, fmt.Errorf("the archive has no case %s (add %s to %s, with the script lines \"exchange %s <chapter>\" and \"pin stdout %s\", then run go generate ./... to pin its replies; or fix the name)", name, reqFile, archive, reqFile, wantFile)
	}
	if files[wantFile] == nil {
		return nil, fmt.Errorf("case %s pins no replies (add a script line \"pin stdout %s\" to %s, then run go generate ./... to pin them)", name, wantFile, archive)
	}
	if t.Check = checkLine(a.Comment, wantFile); t.Check == "" {
		return nil, fmt.Errorf("no script line \"pin stdout %s\" checks case %s (add one to the script of %s, after the line that runs the case)", wantFile, name, archive)
	}
	t.Requests, t.Replies = lines(files[reqFile]), lines(files[wantFile])
	t.Args = caseArgs(a.Comment, reqFile)
	t.Failing = slices.ContainsFunc(lines(a.Comment), func(l string) bool {
		f := strings.Fields(l)
		return len(f) > 2 && f[0] == "!" && f[1] == "exchange" && f[2] == reqFile
	})
	if t.Failing {
		t.Log = lines(files["log/"+name+".log"])
	}
	chapter := chaptersDir + "/" + path.Base(path.Dir(archive))
	if fi, err := fs.Stat(r.root, chapter); err == nil && fi.IsDir() && sdk == "" {
		t.Chapter = chapter
	}
	if _, err := t.exchanges(); err != nil {
		return nil, fmt.Errorf("%s: case %s: %v", archive, name, err)
	}
	r.loaded[t.Key()] = t
	return t, nil
}

// scriptsOf reports whether archive is a testscript archive of the guide,
// under scriptsDir, or of an SDK module, under sdksDir/<module>/scriptsDir,
// and returns the module's name for the latter.
func scriptsOf(archive string) (sdk string, ok bool) {
	if path.Ext(archive) != ".txtar" {
		return "", false
	}
	if strings.HasPrefix(archive, scriptsDir+"/") {
		return "", true
	}
	sdk, rest, _ := strings.Cut(strings.TrimPrefix(archive, sdksDir+"/"), "/")
	return sdk, strings.HasPrefix(archive, sdksDir+"/") && sdk != "" && strings.HasPrefix(rest, scriptsDir+"/")
}

// caseArgs returns the arguments after the chapter's name on the line of
// script that exchanges req, such as -leak in "exchange req/leak.jsonl
// 04-handler-failures -leak"; nil for none (as exchange.ScriptArgs reads
// it for the tests that replay the pins).
func caseArgs(script []byte, req string) []string {
	for _, l := range lines(script) {
		if f := strings.Fields(l); len(f) > 3 && f[0] == "exchange" && f[1] == req {
			return f[3:]
		}
	}
	return nil
}

// checkLine returns the line of script that checks the replies pinned in
// want, "pin stdout <want>" or "cmp stdout <want>", or "" if it has none.
func checkLine(script []byte, want string) string {
	for _, l := range lines(script) {
		if f := strings.Fields(l); len(f) == 3 && (f[0] == "pin" || f[0] == "cmp") && f[1] == "stdout" && f[2] == want {
			return strings.Join(f, " ")
		}
	}
	return ""
}

// lines returns the non-empty lines of b.
func lines(b []byte) []string {
	var ls []string
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimRight(l, "\r\n"); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// isHandshake reports whether a request opens a legacy session: initialize
// or notifications/initialized. A transcript shows them folded.
func isHandshake(line string) bool {
	var m struct{ Method string }
	json.Unmarshal([]byte(line), &m)
	return m.Method == "initialize" || m.Method == "notifications/initialized"
}

// pretty indents a JSON line for reading; a line that is not JSON is shown
// as it is.
func pretty(line string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(line), "", "  ") != nil {
		return line
	}
	return b.String()
}

// transcript includes a case of a testscript archive, pretty-printed.
func (r *resolver) transcript(archive, name string) (template.HTML, string, error) {
	t, err := r.loadTranscript(archive, name)
	if err != nil {
		return "", "", err
	}
	r.transcripts[t.Key()] = t
	ex, _ := t.exchanges() // checked by loadTranscript
	esc := template.HTMLEscapeString
	var b, text strings.Builder
	handshake := 0
	for handshake < len(ex) && isHandshake(ex[handshake].request) {
		handshake++
	}
	if pin, ok := r.stale[t.Key()]; ok {
		b.WriteString(r.staleMark(pin))
	}
	for i, e := range ex {
		if handshake > 0 && i == 0 {
			b.WriteString(`<details class="handshake"><summary>` + esc(r.ui["handshake"]) + `</summary>`)
		}
		fmt.Fprintf(&b, `<div class="exchange" data-request="%s" data-reply="%s"><div class="msg req"><div class="label">%s</div>`,
			esc(e.request), esc(e.reply), esc(r.ui["request"]))
		b.WriteString(string(r.highlight("json", pretty(e.request))))
		b.WriteString(`</div><div class="msg res"><div class="label">` + esc(r.ui["pinned"]) + `</div>`)
		if e.reply != "" {
			b.WriteString(string(r.highlight("json", pretty(e.reply))))
		}
		if note := e.note(); note != "" {
			b.WriteString(`<p class="noreply">` + esc(r.ui[note]) + `</p>`)
		}
		b.WriteString(`</div></div>`)
		if handshake > 0 && i == handshake-1 {
			b.WriteString(`</details>`)
		}
		text.WriteString(e.request + " " + e.reply + " ")
	}
	if len(t.Log) > 0 {
		b.WriteString(`<div class="msg outcome"><div class="label">` + esc(r.ui["outcome"]) + `</div>`)
		b.WriteString(string(r.highlight("text", strings.Join(t.Log, "\n"))) + `</div>`)
		text.WriteString(strings.Join(t.Log, " "))
	}
	if m, ok := r.modules[t.Chapter]; ok && t.Args == nil {
		fmt.Fprintf(&b, `<div class="run" data-module="%s" data-parts="%d" data-size="%d"><button type="button" class="run-button">%s</button><span class="run-status" role="status"></span></div>`,
			esc(m.name), m.parts, m.size, esc(r.ui["run"]))
	}
	caption := sourceCaption(archive, fmt.Sprintf(r.ui["checkedBy"], t.Check))
	return figure("transcript", t.ID(), caption, template.HTML(b.String())), text.String(), nil
}
