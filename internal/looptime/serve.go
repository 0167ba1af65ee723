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
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// chapterMessage is the text of chapter 01 that serve rewords, and the page
// that shows it (the tool-errors page includes the chapter's main.go).
const (
	chapterFile    = "chapters/01-tool-errors/main.go"
	chapterMessage = `in the catalog.", args.Title)`
	chapterPage    = "/tool-errors.html"
)

// serve times how long a chapter edit takes to reach the served guide,
// runs times, in a copy of the repository.
func serve(runs int) error {
	dir, err := copyRepository()
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "docs-server")
	build := exec.Command("go", "build", "-o", bin, "./docs")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./docs: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-addr", addr)
	cmd.Dir = dir
	cmd.Stderr = &prefixed{w: os.Stdout, prefix: "  docs: "} // what it says it does, and how long it took
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	fmt.Printf("copied the repository; load average %s; waiting for the first build\n", loadavg())
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cancel() // kills the server
		cmd.Wait()
	}()
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		return fmt.Errorf("the docs server did not start: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	builds, err := buildEvents(ctx, "http://"+addr+"/_live")
	if err != nil {
		return err
	}
	<-builds // the first build's name, sent when the stream opens
	var current string
	text := chapterMessage
	var times, cpus []time.Duration
	for i := range runs {
		next := fmt.Sprintf(`in the catalog (edit %d at %d).", args.Title)`, i+1, time.Now().UnixNano())
		restore, err := apply(dir, []edit{{chapterFile, text, next}})
		if err != nil {
			return err
		}
		start, cpu := time.Now(), cpuTime(cmd.Process.Pid)
		for {
			select {
			case current = <-builds:
			case <-time.After(5 * time.Minute):
				restore()
				return fmt.Errorf("no new build 5 minutes after the edit")
			}
			if page, err := get("http://" + addr + chapterPage); err == nil && strings.Contains(page, strings.TrimSuffix(next, `", args.Title)`)) {
				break
			}
		}
		d, c := time.Since(start), cpuTime(cmd.Process.Pid)-cpu
		fmt.Printf("run %d: %.1fs, %.1fs of CPU (build %s)\n", i+1, d.Seconds(), c.Seconds(), current)
		times, cpus = append(times, d), append(cpus, c)
		text = next
	}
	report("a chapter edit on the served page", times)
	report("its CPU time (user and system, the server and the processes it waited for)", cpus)
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
