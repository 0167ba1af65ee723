package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpbookshop/guide/internal/check"
	"github.com/mcpbookshop/guide/mcp/client"
)

// The exit statuses of check, distinct from the other commands'.
const (
	exitCheckUsage  = 2 // bad usage of check, or a -junit file it cannot write
	exitFindings    = 5 // a verdict against a MUST, or internals leaked
	exitUnreachable = 6 // the server could not be started or reached, or spoke no era
	exitStopped     = 7 // -timeout ran out (or Ctrl-C) before the end: the verdicts so far are printed
)

// languages are the guide's languages, which -lang takes.
var languages = []string{"en", "de", "es", "fr", "hi", "ja", "ko", "pt-BR", "ru", "tr", "uk", "zh-Hans", "zh-Hant"}

const checkHelp = `usage: mcpc [-url URL] [-era E] [-timeout D] check [flags] [-- SERVER [SERVER ARGS...]]

check puts the guide's lessons to work on any MCP server: it finds which eras
the server speaks, sends each lesson's requests, built from what the server
lists, and judges every answer against the guide's error table and the spec.
By default it sends no arguments that satisfy a tool's schema.

The lessons: an unknown tool; arguments that break each tool's schema (a
required property missing, of the wrong type); a line that is not JSON (over
HTTP, a body); an unknown method; an invalid request (jsonrpc "1.0", an id
that is an object); a batch; an unsupported protocol version; a resource that
does not exist (each template, and a URI that matches none); a cancellation,
then the next request; and internals (stack traces, SQL, source paths) in
every text received. With -tools or -call: each bound a schema states, an
unknown property, a very large string, and (-call) a call that fits.

Each verdict is one of: as the guide; another answer the spec allows;
against a SHOULD (does not fail); against a MUST (fails); leaks internals
(fails); not checked. -timeout (mcpc's flag) bounds the whole check.

Exit status: 0 clean (no verdict against a MUST, nothing leaked), 5 findings,
6 server unreachable or not started, 7 stopped by -timeout (or Ctrl-C) before
its end (the verdicts found so far are printed and written, the lessons not
reached are not checked), 2 bad usage of check or a -junit file it cannot
write.

Flags:
`

// checkCommand runs mcpc check: args are check's own flags, server the
// command after "--", url and era mcpc's.
func checkCommand(ctx context.Context, args, server []string, url string, era client.Era, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpc check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), checkHelp)
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	junit := fs.String("junit", "", "also write the verdicts as JUnit XML to `FILE`, for CI")
	lang := fs.String("lang", "en", "link the guide's pages in `LANG`: "+strings.Join(languages, ", "))
	base := fs.String("base-url", check.DefaultBaseURL, "the `URL` the guide is published at, which verdicts link under")
	tools := fs.String("tools", "", "comma-separated tool `NAMES` whose bounds may be probed with arguments that keep the others valid")
	call := fs.Bool("call", false, "probe every tool as -tools does, and call each once with arguments generated to fit its schema")
	dryRun := fs.Bool("dry-run", false, "discover, then print every request the check would send, and send none")
	wait := fs.Duration("wait", 5*time.Second, "the bound on the wait for one reply (over stdio, on a silence in it)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitResult
		}
		return exitCheckUsage
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mcpc check: "+format+"\nRun 'mcpc check -h' for usage.\n", a...)
		return exitCheckUsage
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected arguments %q: give the server command after --", fs.Args())
	case url != "" && len(server) > 0:
		return usageErr("give either -url or a server command after --, not both")
	case url == "" && len(server) == 0:
		return usageErr("no server: give its command after --, or -url")
	case !slices.Contains(languages, *lang):
		return usageErr("unknown language %q: want one of %s", *lang, strings.Join(languages, ", "))
	case *wait <= 0:
		return usageErr("-wait must be positive")
	}
	if !strings.HasSuffix(*base, "/") {
		*base += "/"
	}
	cfg := &check.Config{Command: server, URL: url, Call: *call, DryRun: *dryRun, Wait: *wait}
	if *tools != "" {
		cfg.Tools = strings.Split(*tools, ",")
	}
	switch era {
	case client.EraModern:
		cfg.Era = "modern"
	case client.EraLegacy:
		cfg.Era = "legacy"
	}
	var report *os.File // -junit's, created before the check so that a path that cannot be written costs no run
	if *junit != "" && !*dryRun {
		f, err := os.Create(*junit)
		if err != nil {
			return usageErr("-junit: the report cannot be written: %v", err)
		}
		report = f
		defer func() {
			if report != nil { // no report was written: leave no empty one behind
				report.Close()
				os.Remove(*junit)
			}
		}()
	}
	r, err := check.Run(ctx, cfg)
	stopped := errors.Is(err, check.ErrStopped)
	if err != nil && (!stopped || *dryRun) {
		fmt.Fprintf(stderr, "mcpc check: %v\n", err)
		if stopped {
			return exitStopped
		}
		return exitUnreachable
	}
	if *dryRun {
		r.WritePlan(stdout)
		return exitResult
	}
	r.Link(*base, *lang)
	if *asJSON {
		r.WriteJSON(stdout)
	} else {
		r.WriteText(stdout)
	}
	if report != nil {
		err := r.WriteJUnit(report)
		if cerr := report.Close(); err == nil {
			err = cerr
		}
		report = nil
		if err != nil {
			fmt.Fprintf(stderr, "mcpc check: -junit: writing the report to %s: %v\n", *junit, err)
			return exitCheckUsage
		}
	}
	switch {
	case stopped:
		fmt.Fprintf(stderr, "mcpc check: %v; the verdicts found so far are printed, and the lessons it did not reach are not checked\n", err)
		return exitStopped
	case r.Fails():
		return exitFindings
	}
	return exitResult
}
