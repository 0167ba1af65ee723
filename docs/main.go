// Command docs builds and serves the guide.
//
// Run from anywhere in the repository:
//
//	go run ./docs                       serve the guide at http://127.0.0.1:8080/
//	go run ./docs -addr :9000           serve it on another port (still loopback only)
//	go run ./docs build                 write the static site into site/
//	go run ./docs build -o DIR          write it into DIR
//	go run ./docs build -base-url URL   give the address it is published at, which
//	                                    sitemap.xml and llms.txt use (default
//	                                    defaultBaseURL)
//	go run ./docs status [-v] [-check]  count, per language, the sections current and
//	                                    behind English (-v lists them; -check fails if any is)
//	go run ./docs stamp [-force] LANG PAGE [ID…]
//	                                    record that PAGE in LANG follows the English
//	                                    sections named (all of them if none is); the
//	                                    ID reasons is its translated SDK reasons
//
// Each chapter transcript has a Run button: it sends the same requests to
// the chapter's real server, its main compiled to WebAssembly and running
// inside the page, and shows the live responses beside the pinned ones; any
// request can be edited and sent again. The static site and the served one
// are the same files, so this works from any static host and from file://,
// offline.
//
// The served guide is rebuilt as soon as its sources change (a page under
// docs/, a pin under testdata/scripts/, a chapter, which is compiled for the
// browser again), and every open page then reloads itself where it was:
// save a file and look. When a chapter changes, the server also replays its
// pinned cases in the background, and marks each transcript whose pin the
// chapter no longer matches, with what differs and the command that
// refreshes the pins, until they are refreshed. The served pages learn of
// each build from a stream of server-sent events, and reconnect when the
// server restarts; the static site has none of that (no marks, no events)
// and opens no connection. A page that does not build
// shows, in its place, the file, the problem and the fix, and turns into
// the page once fixed; the other pages are served as usual. "go run ./docs
// build" fails until every page builds.
//
// The first run is slow: it compiles this command and every chapter for the
// browser, and says so as it goes. Later runs reuse Go's build cache.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/mcpbookshop/guide/internal/listenaddr"
	"github.com/mcpbookshop/guide/internal/site"
)

// defaultAddr is where the guide is served unless -addr says otherwise:
// loopback only, as for the chapters' -http, since it serves a working tree
// to the person editing it.
const defaultAddr = "127.0.0.1:8080"

// defaultBaseURL is where the guide is published unless build's -base-url
// says otherwise: the absolute address sitemap.xml lists the pages under,
// and llms.txt links them with. It is the GitHub Pages address of the
// repository the module path names (github.com/mcpbookshop/guide); the
// guide served by go run ./docs uses it too.
const defaultBaseURL = "https://mcpbookshop.github.io/guide/"

func main() {
	log.SetFlags(0)
	log.SetPrefix("docs: ")
	// A flag set of its own: the packages this command imports register
	// test flags (-update) in flag's default set, which are not its own.
	flags := flag.NewFlagSet("docs", flag.ExitOnError)
	flags.Usage = func() { usage(flags) }
	addr := flags.String("addr", defaultAddr, "the address to serve the guide on")
	flags.Parse(os.Args[1:])
	root, err := repoRoot()
	if err != nil {
		log.Fatal(err)
	}
	switch flags.Arg(0) {
	case "", "serve":
		err = serve(root, *addr)
	case "build":
		err = build(root, flags.Args()[1:])
	case "status":
		err = status(os.Stdout, os.DirFS(root), os.DirFS(filepath.Join(root, "docs")), flags.Args()[1:])
	case "stamp":
		err = stamp(os.Stdout, os.DirFS(root), filepath.Join(root, "docs"), flags.Args()[1:])
	default:
		flags.Usage()
		os.Exit(2)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errBehind):
		log.Print(err)
		os.Exit(1)
	case err != nil:
		log.Fatal(err)
	}
}

func usage(flags *flag.FlagSet) {
	fmt.Fprintf(os.Stderr, "usage: go run ./docs [-addr host:port] [serve | build [-o dir] [-base-url URL] | status [-v] [-check] | stamp [-force] LANG PAGE [ID...]]\n\n")
	flags.PrintDefaults()
}

// config is the site's configuration for the repository at root, with
// browser's modules for the Run buttons.
func config(root string, browser *site.Browser) site.Config {
	return site.Config{Root: os.DirFS(root), Docs: os.DirFS(filepath.Join(root, "docs")), DocsDir: "docs", Browser: browser, BaseURL: defaultBaseURL}
}

// repoRoot finds the repository: the nearest directory up from here with a
// go.mod and a docs folder.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) && fileExists(filepath.Join(dir, "docs", "pages.txt")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run me inside the guide's repository (no go.mod with docs/pages.txt above here)")
		}
		dir = parent
	}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// serve serves the guide with Run buttons until interrupted, rebuilding it
// when its sources change and reloading its open pages.
func serve(root, addr string) error {
	addr, err := listenaddr.Resolve(addr) // a bare port means loopback, as for the chapters
	if err != nil {
		return err
	}
	live := &liveSite{root: root, pins: newPinCheck(root)}
	live.current() // the first build, before the first page is asked for
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("Serving the guide at http://%s/ (Ctrl-C to stop); open pages reload after an edit.\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveLive(ctx, ln, live)
}

// serveLive serves live on ln, rebuilding it as soon as its sources change,
// until ctx is done; then it shuts the server down, ending the pages' event
// streams, which it would wait for otherwise.
func serveLive(ctx context.Context, ln net.Listener, live *liveSite) error {
	srv := &http.Server{Handler: live}
	srv.RegisterOnShutdown(live.closeStreams)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watching := make(chan struct{})
	go func() {
		live.watch(ctx)
		close(watching)
	}()
	if live.pins != nil {
		checking := make(chan struct{})
		go func() {
			live.pins.run(ctx, live.out())
			close(checking)
		}()
		defer func() { <-checking }()
	}
	shutdown := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown <- srv.Shutdown(context.Background())
	}()
	err := srv.Serve(ln)
	cancel()
	<-watching
	defer live.compiles.Wait() // after the handlers, which may start one
	if serr := <-shutdown; errors.Is(err, http.ErrServerClosed) {
		err = serr
	}
	return err
}

// build writes the static site.
func build(root string, args []string) error {
	flags := flag.NewFlagSet("build", flag.ExitOnError)
	out := flags.String("o", filepath.Join(root, "site"), "the folder to write the site into (replaced)")
	baseURL := flags.String("base-url", defaultBaseURL, "the absolute `URL` the site is published at, which sitemap.xml and llms.txt link pages under")
	flags.Parse(args)
	base, err := site.ParseBaseURL(*baseURL)
	if err != nil {
		return fmt.Errorf("-base-url: %v", err)
	}
	browser, err := compileBrowser(context.Background(), root, os.Stdout)
	if err != nil {
		return err
	}
	fmt.Println("Rendering the guide...")
	cfg := config(root, browser)
	cfg.BaseURL = base
	s, err := site.Build(cfg)
	if err != nil {
		return err
	}
	if err := s.WriteDir(*out); err != nil {
		return err
	}
	abs, _ := filepath.Abs(*out)
	fmt.Printf("Wrote %d files; open file://%s\n", len(s.Files), filepath.ToSlash(filepath.Join(abs, "index.html")))
	return nil
}
