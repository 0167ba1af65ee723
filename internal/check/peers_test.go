package check

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestPeers checks the peers' Bookshops (../shared/bench: the chapters
// written with the official Go SDK and with mcp-go) over stdio, as a new
// user would check a server no one here wrote: each is reached in both
// eras, every verdict is complete, and a second check gives the same
// verdicts. The verdicts are logged, for the guide's page.
func TestPeers(t *testing.T) {
	if os.Getenv("GUIDE_LONG") == "" {
		t.Skip("long check: run with GUIDE_LONG=1, as .ci/run does")
	}
	bench := ""
	for _, dir := range []string{filepath.Join(root, "..", "shared", "bench"), filepath.Join(root, "..", "..", "shared", "bench")} {
		if _, err := os.Stat(dir); err == nil && bench == "" {
			bench = dir // beside the module, or beside the worktrees of its checkout
		}
	}
	if bench == "" {
		t.Skip("the peers are not here: no shared/bench beside the module's directory or its parent")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build the peers:", err)
	}
	bin := t.TempDir()
	for _, peer := range []string{"ref-gosdk", "ref-mcpgo"} {
		for _, main := range []string{"01-tool-errors", "02-protocol-errors", "03-resources"} {
			name := peer + "/" + main
			out := filepath.Join(bin, peer+"-"+main)
			cmd := exec.Command("go", "build", "-o", out, "./"+main)
			cmd.Dir = filepath.Join(bench, peer)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("building %s: %v\n%s", name, err, b)
				continue
			}
			var runs [2][]Kind
			for i := range runs {
				ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
				r, err := Run(ctx, &Config{Command: []string{out}})
				cancel()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(r.Eras) != 2 {
					t.Errorf("%s: %d eras, want both", name, len(r.Eras))
				}
				for _, e := range r.Eras {
					for _, v := range e.Verdicts {
						if v.Kind != NotChecked && v.Lesson != LessonInternals && (v.Request == "" || v.Reply == "") ||
							(v.Kind == AgainstMust || v.Kind == AgainstShould) && v.Quote == nil {
							t.Errorf("%s: an incomplete verdict: %+v", name, v)
						}
						runs[i] = append(runs[i], v.Kind)
						if i == 0 && v.Kind != AsGuide {
							t.Logf("%-34s %s %-30s %s · %s: %s", name, e.Version, v.Kind, v.Lesson, v.Target, v.Detail)
						}
					}
				}
			}
			if !slices.Equal(runs[0], runs[1]) {
				t.Errorf("%s: two checks disagree:\n%v\n%v", name, runs[0], runs[1])
			}
		}
	}
}
