package checktest

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"time"
)

// announced matches the line a chapter writes to stderr once it serves
// Streamable HTTP, and captures the endpoint's URL.
var announced = regexp.MustCompile(`serves MCP over Streamable HTTP at (http://\S+)`)

// ServeHTTP starts the chapter binary at path over Streamable HTTP on a
// free loopback port and returns its endpoint's URL, and the function that
// stops it.
func ServeHTTP(path string) (url string, stop func(), err error) {
	cmd := exec.Command(path, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := announced.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		close(found)
		io.Copy(io.Discard, stderr) // its log keeps flowing
	}()
	select {
	case u, ok := <-found:
		if ok {
			return u, stop, nil
		}
		err = fmt.Errorf("%s ended without announcing its URL", path)
	case <-time.After(30 * time.Second):
		err = fmt.Errorf("%s did not announce its URL within 30s", path)
	}
	stop()
	return "", nil, err
}
