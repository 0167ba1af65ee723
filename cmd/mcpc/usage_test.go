package main

import (
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestUsageExamples runs every example of mcpc -h against the chapters'
// real servers and checks the exit status its heading promises, so that no
// example fails without saying that this is the point.
func TestUsageExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the chapters; skipped in -short mode")
	}
	bin := buildChapters(t)
	heading := regexp.MustCompile(`^  .* \((\d)\):$`)
	want, ran := -1, 0
	for line := range strings.Lines(usage[strings.Index(usage, "Examples"):]) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") { // a heading
			want = -1 // none for the HTTP examples, which start a server: TestUsageHTTPPort
			if m := heading.FindStringSubmatch(line); m != nil {
				want, _ = strconv.Atoi(m[1])
			}
			continue
		}
		cmd, ok := strings.CutPrefix(line, "    go run ./cmd/mcpc ")
		if !ok || want < 0 {
			continue
		}
		args := shellWords(t, cmd)
		for i, a := range args {
			if a == "go" && i+2 < len(args) && args[i+1] == "run" {
				chapter := strings.TrimPrefix(args[i+2], "./chapters/")
				args = append(args[:i:i], filepath.Join(bin, chapter))
				break
			}
		}
		if got := run(t.Context(), args, io.Discard, io.Discard); got != want {
			t.Errorf("mcpc %s: exit status %d, the usage says %d", cmd, got, want)
		}
		ran++
	}
	if ran < 5 {
		t.Errorf("only %d examples found in the usage", ran)
	}
}

// TestUsageHTTPPort checks that the HTTP example starts the chapter on the
// port it then asks, and not on the docs server's (go run ./docs serves on
// 8080), where the chapter could not listen while the guide is served.
func TestUsageHTTPPort(t *testing.T) {
	listen := regexp.MustCompile(`-http :(\d+) &`).FindStringSubmatch(usage)
	ask := regexp.MustCompile(`-url http://127\.0\.0\.1:(\d+)/mcp`).FindStringSubmatch(usage)
	if listen == nil || ask == nil || listen[1] != ask[1] || listen[1] == "8080" {
		t.Errorf("the HTTP example listens on %v and asks %v: want the same port, not 8080", listen, ask)
	}
}

// shellWords splits a command line as a POSIX shell would, for the
// examples' single-quoted arguments.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var w strings.Builder
	quoted, in := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %s", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
