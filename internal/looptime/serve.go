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
	"strings"
	"time"
)

// chapterMessage is the text of chapter 01 that serve rewords, and the page
// that shows it (the tool-errors page includes the chapter's main.go).
const (
	chapterFile    = "chapters/01-tool-errors/main.go"
	chapterMessage = "in the catalog."
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
	cmd.Stderr = io.Discard
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	fmt.Printf("copied the repository; load average %s; waiting for the first build\n", loadavg())
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		return fmt.Errorf("the docs server did not start: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	builds, err := buildEvents(ctx, "http://"+addr+"/_live")
	if err != nil {
		return err
	}
	current := <-builds
	text := chapterMessage
	var times []time.Duration
	for i := range runs {
		next := fmt.Sprintf("in the catalog (edit %d at %d).", i+1, time.Now().UnixNano())
		restore, err := apply(dir, []edit{{chapterFile, text, next}})
		if err != nil {
			return err
		}
		start := time.Now()
		for {
			select {
			case current = <-builds:
			case <-time.After(5 * time.Minute):
				restore()
				return fmt.Errorf("no new build 5 minutes after the edit")
			}
			if page, err := get("http://" + addr + chapterPage); err == nil && strings.Contains(page, next) {
				break
			}
		}
		d := time.Since(start)
		fmt.Printf("run %d: %.1fs (build %s)\n", i+1, d.Seconds(), current)
		times = append(times, d)
		text = next
	}
	report("a chapter edit on the served page", times)
	return nil
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
