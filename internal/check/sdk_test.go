package check

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// root is the module's root, from this package's directory.
const root = "../.."

// lessonsFile is what Your SDK renders its table from.
type lessonsFile struct {
	SDKs []struct {
		Dir, Name string
	}
	Lessons []struct {
		ID    string
		Case  string
		Mains map[string]struct{ Default, Fix string }
	}
}

// pinnedCase returns the request, reply and log lines of case name in the
// archive at file.
func pinnedCase(t *testing.T, file, name string) (req, want, log []string) {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(b []byte) []string {
		var out []string
		for l := range strings.Lines(string(b)) {
			if l = strings.TrimRight(l, "\n"); strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
		return out
	}
	found := false
	for _, f := range a.Files {
		switch f.Name {
		case "req/" + name + ".jsonl":
			req, found = lines(f.Data), true
		case "want/" + name + ".jsonl":
			want = lines(f.Data)
		case "log/" + name + ".log":
			log = lines(f.Data)
		}
	}
	if !found {
		t.Fatalf("%s has no case %s", file, name)
	}
	return req, want, log
}

// sameReplies reports whether two pins hold the same JSON values, line by
// line: what Your SDK calls "same as the guide".
func sameReplies(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal([]byte(a[i]), &x) != nil || json.Unmarshal([]byte(b[i]), &y) != nil {
			return false
		}
		xb, _ := json.Marshal(x)
		yb, _ := json.Marshal(y)
		if !bytes.Equal(xb, yb) {
			return false
		}
	}
	return true
}

// sdkVerdict is the judgment of one SDK main's pinned case.
type sdkVerdict struct {
	lesson, sdk, main string
	v                 Verdict
}

// judgeSDKPins judges every pinned case Your SDK compares, for the lessons
// a pin can be judged for: the guide's, then each SDK main's.
func judgeSDKPins(t *testing.T) (guide map[string]Verdict, sdks []sdkVerdict) {
	b, err := os.ReadFile(filepath.Join(root, "sdks", "lessons.json"))
	if err != nil {
		t.Skip("no sdks/lessons.json:", err)
	}
	var lf lessonsFile
	if err := json.Unmarshal(b, &lf); err != nil {
		t.Fatal(err)
	}
	guide = map[string]Verdict{}
	for _, l := range lf.Lessons {
		if _, ok := pinnedRows[l.ID]; !ok {
			continue
		}
		archive, name, _ := strings.Cut(l.Case, "#")
		req, want, log := pinnedCase(t, filepath.Join(root, "testdata", "scripts", archive), name)
		gv, _ := JudgePinned(l.ID, req, want, log)
		guide[l.ID] = gv
		if gv.Kind != AsGuide {
			t.Errorf("%s: the guide's own pin %s is judged %v (%s)", l.ID, l.Case, gv.Kind, gv.Detail)
		}
		for _, sdk := range lf.SDKs {
			mains, ok := l.Mains[sdk.Dir]
			if !ok {
				continue
			}
			var kinds []Kind
			for _, main := range []string{mains.Default, mains.Fix} {
				if main == "" {
					continue
				}
				file := filepath.Join(root, "sdks", sdk.Dir, "testdata", "scripts", main, path.Base(archive))
				sreq, swant, slog := pinnedCase(t, file, name)
				v, _ := JudgePinned(l.ID, sreq, swant, slog)
				sdks = append(sdks, sdkVerdict{l.ID, sdk.Dir, main, v})
				if sameReplies(swant, want) && v.Kind != AsGuide {
					t.Errorf("%s, %s %s: Your SDK calls it the same as the guide, the judge says %v (%s)", l.ID, sdk.Name, main, v.Kind, v.Detail)
				}
				kinds = append(kinds, v.Kind)
			}
			if len(kinds) == 2 && worse(kinds[1], kinds[0]) {
				t.Errorf("%s, %s: the fixed main %s is judged %v, worse than its default's %v", l.ID, sdk.Name, mains.Fix, kinds[1], kinds[0])
			}
		}
	}
	return guide, sdks
}

// worse reports whether a is a worse verdict than b; not checked is
// neither better nor worse.
func worse(a, b Kind) bool { return a != NotChecked && b != NotChecked && a > b }

// TestYourSDKAgrees judges each SDK main's pinned case of Your SDK with the
// judging function mcpc check uses: a cell the page calls the same as the
// guide is judged as the guide, and a fixed main is never judged worse than
// its default.
func TestYourSDKAgrees(t *testing.T) {
	_, sdks := judgeSDKPins(t)
	if len(sdks) == 0 {
		t.Fatal("no SDK case judged")
	}
	for _, s := range sdks {
		t.Logf("%-18s %-6s %-28s %v", s.lesson, s.sdk, s.main, s.v.Kind)
	}
}

// liveTargets are the verdicts of a live check that answer each lesson's
// pinned case: the same request, or one of the same class.
var liveTargets = map[string]func(v Verdict) bool{
	LessonValidation:       func(v Verdict) bool { return strings.HasSuffix(v.Target, "title of the wrong type") },
	LessonUnknownTool:      func(v Verdict) bool { return true },
	LessonResourceNotFound: func(v Verdict) bool { return strings.HasPrefix(v.Target, "template ") },
	LessonMalformedLine:    func(v Verdict) bool { return true },
}

// TestYourSDKLive builds every SDK main Your SDK names and checks it live,
// over stdio, in the 2026-07-28 era; for each lesson a pin can be judged
// for, the live verdict agrees with the pinned one.
func TestYourSDKLive(t *testing.T) {
	if os.Getenv("GUIDE_LONG") == "" {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the SDK mains:", err)
	}
	_, sdks := judgeSDKPins(t)
	bin := t.TempDir()
	built := map[string]string{}
	for _, s := range sdks {
		key := s.sdk + "/" + s.main
		if _, ok := built[key]; !ok {
			out := filepath.Join(bin, s.sdk+"-"+s.main)
			cmd := exec.Command("go", "build", "-o", out, "./"+s.main)
			cmd.Dir = filepath.Join(root, "sdks", s.sdk)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("building %s: %v\n%s", key, err, b)
			}
			built[key] = out
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		r, err := Run(ctx, &Config{Command: []string{built[key]}, Era: "modern"})
		cancel()
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		var live *Verdict
		for i, v := range r.Eras[0].Verdicts {
			if v.Lesson == s.lesson && liveTargets[s.lesson](v) && live == nil {
				live = &r.Eras[0].Verdicts[i]
			}
		}
		switch {
		case live == nil:
			t.Errorf("%s, %s: the live check has no verdict", s.lesson, key)
		case live.Kind != s.v.Kind:
			t.Errorf("%s, %s: live %v (%s), pinned %v (%s)", s.lesson, key, live.Kind, live.Detail, s.v.Kind, s.v.Detail)
		default:
			t.Logf("%-18s %-34s %v", s.lesson, key, live.Kind)
		}
	}
}
