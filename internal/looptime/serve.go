package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// chapterMessage is the text of chapter 01 that serve rewords, and the page
// that shows it (the tool-errors page includes the chapter's main.go).
const (
	chapterFile    = "chapters/01-tool-errors/main.go"
	chapterMessage = `in the catalog.", args.Title)`
	chapterPage    = "/tool-errors.html"
)

// served is the guide served from a copy of the repository, as
// go run ./docs serves it, with the stream of its builds open.
type served struct {
	dir    string
	url    string
	builds <-chan string // each build's name
	build  string        // the last one received
	cmd    *exec.Cmd
	stop   func()
	log    said // what the server says
}

// serveCopy copies the repository, serves it, and waits for the first
// build; stop ends the server and removes the copy.
func serveCopy() (*served, error) {
	dir, err := copyRepository()
	if err != nil {
		return nil, err
	}
	s := &served{dir: dir, stop: func() { os.RemoveAll(dir) }}
	bin := filepath.Join(dir, "docs-server")
	build := exec.Command("go", "build", "-o", bin, "./docs")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		s.stop()
		return nil, fmt.Errorf("go build ./docs: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.stop()
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s.cmd = exec.CommandContext(ctx, bin, "-addr", addr)
	s.cmd.Dir = dir
	s.cmd.Stderr = &prefixed{w: os.Stdout, prefix: "  docs: ", said: &s.log} // what it says it does, and how long it took
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		cancel()
		s.stop()
		return nil, err
	}
	fmt.Printf("copied the repository; load average %s; waiting for the first build\n", loadavg())
	if err := s.cmd.Start(); err != nil {
		cancel()
		s.stop()
		return nil, err
	}
	s.stop = func() {
		cancel() // kills the server
		s.cmd.Wait()
		os.RemoveAll(dir)
	}
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		s.stop()
		return nil, fmt.Errorf("the docs server did not start: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	s.url = "http://" + addr
	if s.builds, err = buildEvents(ctx, s.url+"/_live"); err != nil {
		s.stop()
		return nil, err
	}
	s.build = <-s.builds // the first build's name, sent when the stream opens
	if err := s.settle(0); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// waitPage waits for builds until the chapter's page satisfies ok, and
// returns the build's name; it fails after 5 minutes.
func (s *served) waitPage(ok func(page string) bool) (string, error) {
	var current string
	for {
		if page, err := get(s.url + chapterPage); err == nil && ok(page) {
			return current, nil
		}
		select {
		case current = <-s.builds:
			s.build = current
		case <-time.After(5 * time.Minute):
			return "", fmt.Errorf("the page is not as awaited 5 minutes after the edit")
		}
	}
}

// settle waits, untimed, until the server is done with an edit: the
// pins of chapter 01 checked since it said line from, and the build
// published with every Run button (no "+without-" in its name), as a
// contributor who reads the page before the next edit finds it. Each run
// then times an edit alone, not the tail of the one before.
func (s *served) settle(from int) error {
	deadline := time.After(5 * time.Minute)
	for {
		checked, said := s.log.since(from, "Checked the pins of "+path.Dir(chapterFile))
		if checked && !strings.Contains(s.build, "+without-") {
			return nil
		}
		select {
		case s.build = <-s.builds:
		case <-said:
		case <-deadline:
			return fmt.Errorf("the server did not settle 5 minutes after the edit")
		}
	}
}

// said holds the lines a server said, and tells who waits of each new one.
type said struct {
	mu    sync.Mutex
	lines []string
	next  chan struct{} // closed by the next line
}

func (s *said) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, line)
	if s.next != nil {
		close(s.next)
		s.next = nil
	}
}

// count returns how many lines were said.
func (s *said) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}

// since reports whether a line said from the line numbered from on holds
// text, and returns a channel closed by the next line.
func (s *said) since(from int, text string) (bool, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, line := range s.lines[min(from, len(s.lines)):] {
		if strings.Contains(line, text) {
			return true, nil
		}
	}
	if s.next == nil {
		s.next = make(chan struct{})
	}
	return false, s.next
}

// reword returns chapter 01's message reworded for run i.
func reword(i int) string {
	return fmt.Sprintf(`in the catalog (edit %d at %d).", args.Title)`, i+1, time.Now().UnixNano())
}

// shows reports whether page shows the reworded message next.
func shows(page, next string) bool {
	return strings.Contains(page, strings.TrimSuffix(next, `", args.Title)`))
}

// buildNote names the build a run waited for, if it waited for one (a
// request made while the server rebuilds gets the new build at once).
func buildNote(build string) string {
	if build == "" {
		return ""
	}
	return " (build " + build + ")"
}

// staleMark is how a page marks a stale transcript.
const staleMark = `class="stale-pin"`

// serve times how long a chapter edit takes to reach the served guide,
// runs times, in a copy of the repository.
func serve(runs int) error {
	s, err := serveCopy()
	if err != nil {
		return err
	}
	defer s.stop()
	text := chapterMessage
	var times, cpus []time.Duration
	for i := range runs {
		next := reword(i)
		restore, err := apply(s.dir, []edit{{chapterFile, text, next}})
		if err != nil {
			return err
		}
		from := s.log.count()
		start, cpu := time.Now(), cpuTime(s.cmd.Process.Pid)
		build, err := s.waitPage(func(page string) bool { return shows(page, next) })
		if err != nil {
			restore()
			return err
		}
		d, c := time.Since(start), cpuTime(s.cmd.Process.Pid)-cpu
		fmt.Printf("run %d: %.1fs, %.1fs of CPU%s\n", i+1, d.Seconds(), c.Seconds(), buildNote(build))
		times, cpus = append(times, d), append(cpus, c)
		text = next
		if err := s.settle(from); err != nil {
			return err
		}
	}
	report("a chapter edit on the served page", times)
	report("its CPU time (user and system, the server and the processes it waited for)", cpus)
	return nil
}

// stale times, runs times, how long a chapter edit that changes pinned
// replies takes to be marked stale on the served page, and how long the
// edit itself takes to show there; after each run it puts the chapter
// back and waits for the marks to clear, which it times too.
func stale(runs int) error {
	s, err := serveCopy()
	if err != nil {
		return err
	}
	defer s.stop()
	if _, err := s.waitPage(func(page string) bool { return !strings.Contains(page, staleMark) }); err != nil {
		return err
	}
	var shown, marked, cleared []time.Duration
	for i := range runs {
		next := reword(i)
		restore, err := apply(s.dir, []edit{{chapterFile, chapterMessage, next}})
		if err != nil {
			return err
		}
		start := time.Now()
		var edited time.Duration
		build, err := s.waitPage(func(page string) bool {
			if edited == 0 && shows(page, next) {
				edited = time.Since(start)
			}
			return edited != 0 && strings.Contains(page, staleMark)
		})
		d := time.Since(start)
		from := s.log.count()
		if err2 := restore(); err == nil {
			err = err2
		}
		if err != nil {
			return err
		}
		back := time.Now()
		if _, err := s.waitPage(func(page string) bool { return !shows(page, next) && !strings.Contains(page, staleMark) }); err != nil {
			return err
		}
		c := time.Since(back)
		if err := s.settle(from); err != nil {
			return err
		}
		fmt.Printf("run %d: the edit shown after %.1fs, marked stale after %.1fs%s, the marks cleared %.1fs after the chapter was put back\n", i+1, edited.Seconds(), d.Seconds(), buildNote(build), c.Seconds())
		shown, marked, cleared = append(shown, edited), append(marked, d), append(cleared, c)
	}
	report("a chapter edit on the served page", shown)
	report("its stale pins marked on the page", marked)
	report("the marks cleared once the chapter is put back", cleared)
	return nil
}

// cpuTime returns the CPU time, user and system, that the process pid and
// the children it waited for used so far, from /proc/PID/stat; 0 where
// there is no such file.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses: utime,
	// stime, cutime and cstime are the 12th to the 15th, in clock ticks.
	_, after, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(after)
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, _ := strconv.ParseInt(s, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ is 100 on Linux
}

// prefixed writes each line written to it to w, after prefix.
type prefixed struct {
	w       io.Writer
	prefix  string
	said    *said // keeps each line too
	partial []byte
}

func (p *prefixed) Write(b []byte) (int, error) {
	p.partial = append(p.partial, b...)
	for {
		line, rest, ok := bytes.Cut(p.partial, []byte("\n"))
		if !ok {
			return len(b), nil
		}
		fmt.Fprintf(p.w, "%s%s\n", p.prefix, line)
		p.said.add(string(line))
		p.partial = rest
	}
}

// buildEvents opens the served guide's stream of builds at url and sends
// each build's name on the returned channel until ctx is done.
func buildEvents(ctx context.Context, url string) (<-chan string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	ch := make(chan string)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				select {
				case ch <- name:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return ch, nil
}

// get returns the body of url, unescaped as a reader sees the page's text.
func get(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, resp.Body); err != nil {
		return "", err
	}
	return html.UnescapeString(b.String()), nil
}
