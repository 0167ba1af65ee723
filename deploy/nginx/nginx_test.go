package nginx

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/mcptest"
)

// binaries are the chapters, each built on first use by the test that
// runs it; nginxPath is the nginx command, "" when it is not installed.
var (
	binaries  chapterproc.Binaries
	nginxPath string
)

// TestMain finds nginx, and removes the chapters' binaries after the tests.
func TestMain(m *testing.M) {
	nginxPath = findNginx()
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}

// findNginx returns the nginx command: on PATH, or where Debian puts it
// (sbin directories are not on every user's PATH).
func findNginx() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// needNginx skips the test when nginx is not installed.
func needNginx(t *testing.T) {
	t.Helper()
	if nginxPath == "" {
		t.Skip("nginx is not installed (Debian: apt-get install nginx; .ci/run does): the deployment tests need it")
	}
}

// waitFor bounds every wait of these tests: for a process to listen or to
// exit, for a load to finish.
const waitFor = 20 * time.Second

// A backend is one chapter process serving Streamable HTTP on a loopback
// port it keeps across restarts.
type backend struct {
	chapter string
	prefix  string            // of its session ids
	addr    string            // host:port
	proc    *chapterproc.HTTP // nil while it is not running
}

// startBackend runs chapter with -http on a free loopback port, its
// session ids starting with prefix.
func startBackend(t *testing.T, chapter, prefix string) *backend {
	b := &backend{chapter: chapter, prefix: prefix, addr: "127.0.0.1:0"}
	b.start(t)
	t.Cleanup(func() { b.stop(t) })
	return b
}

// start runs the backend's process on its address and waits for its
// startup line, which names the address it listens on.
func (b *backend) start(t *testing.T) {
	t.Helper()
	path, err := binaries.Path(b.chapter)
	if err != nil {
		t.Fatal(err)
	}
	p, err := chapterproc.StartHTTP(path, b.addr, "-session-prefix", b.prefix)
	if err != nil {
		t.Fatal(err)
	}
	b.proc, b.addr = p, p.Addr()
}

// terminate sends the backend SIGTERM and fails unless it exits with
// status 0.
func (b *backend) terminate(t *testing.T) {
	t.Helper()
	if err := b.proc.Stop(waitFor); err != nil {
		t.Error(err)
	}
	b.proc = nil
}

// stop terminates the backend if it runs.
func (b *backend) stop(t *testing.T) {
	if b.proc != nil {
		b.terminate(t)
	}
}

// startBackends runs three processes of chapter, as mcp.conf expects them:
// backend N with session prefix bN-.
func startBackends(t *testing.T, chapter string) []*backend {
	var bs []*backend
	for n := 1; n <= 3; n++ {
		bs = append(bs, startBackend(t, chapter, fmt.Sprintf("b%d-", n)))
	}
	return bs
}

// upstreamHeader is the response header in which the test's nginx says
// which backends it tried: nginx's $upstream_addr, addresses separated by
// commas.
const upstreamHeader = "X-Upstream"

// startNginx runs nginx in the foreground with conf (the text of mcp.conf
// or a variant) in front of backends, its prefix, logs and temporary files
// in a directory of the test's, and returns the endpoint's URL. The main
// configuration around conf adds the upstreamHeader to every response.
func startNginx(t *testing.T, conf string, backends []*backend) string {
	needNginx(t)
	dir := t.TempDir()
	listen := freePort(t)
	vars := map[string]string{"MCP_LISTEN": listen}
	for i, b := range backends {
		vars[fmt.Sprintf("MCP_BACKEND_%d", i+1)] = b.addr
	}
	site := os.Expand(conf, func(name string) string {
		if v, ok := vars[name]; ok {
			return v
		}
		return "$" + name // one of nginx's variables
	})
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // the workers must write in dir
	}
	main := fmt.Sprintf(`%s
daemon off;
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[2]s/client_body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    add_header %[3]s $upstream_addr always;
    include %[2]s/mcp.conf;
}
`, user, dir, upstreamHeader)
	for name, text := range map[string]string{"mcp.conf": site, "nginx.conf": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(nginxPath, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		client.CloseIdleConnections()
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(waitFor):
			cmd.Process.Kill()
			t.Errorf("nginx still running %v after SIGTERM", waitFor)
		}
	})
	for deadline := time.Now().Add(waitFor); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", listen); err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx exited: %v\n%s%s", err, out.Bytes(), log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx not listening on %s after %v", listen, waitFor)
		}
	}
	return "http://" + listen + "/mcp"
}

// freePort returns a loopback address whose port was free a moment ago.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// recipe returns the text of mcp.conf.
func recipe(t *testing.T) string {
	b, err := os.ReadFile("mcp.conf")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutSticky returns conf without the lines that route a session to
// the backend holding it, so every request is balanced round-robin.
func withoutSticky(t *testing.T, conf string) string {
	var out strings.Builder
	for line := range strings.Lines(conf) {
		if !strings.HasPrefix(strings.TrimSpace(line), "~^b") {
			out.WriteString(line)
		}
	}
	if out.Len() == len(conf) {
		t.Fatal("mcp.conf routes no session prefix")
	}
	return out.String()
}

// A reply is one HTTP exchange: its status, body, session header, and the
// backends nginx tried.
type reply struct {
	status   int
	body     string
	session  string
	upstream string
}

// client is the HTTP client of the tests; each test's connections to nginx
// are kept alive.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: waitFor}

// post sends one JSON-RPC message to url with the given headers.
func post(url, body string, headers map[string]string) (reply, error) {
	r, err := mcptest.Post(context.Background(), client, url, body, headers)
	if err != nil {
		return reply{}, err
	}
	return reply{r.Status, r.Body, r.Header.Get("Mcp-Session-Id"), r.Header.Get(upstreamHeader)}, nil
}

// modernCall is a modern-era tools/call of get_author for title, with the
// headers the transport requires.
func modernCall(id int, title string) (string, map[string]string) {
	return mcptest.ToolCall(strconv.Itoa(id), "get_author", fmt.Sprintf(`{"title":%q}`, title)), mcptest.Headers("tools/call", "get_author")
}

// counter counts strings, safe for concurrent use.
type counter struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *counter) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]int)
	}
	c.m[s]++
}

func (c *counter) get(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[s]
}
