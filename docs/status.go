package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpbookshop/guide/internal/site"
)

// errBehind is what status -check returns, wrapped, when a section is
// behind: what to do about it.
var errBehind = errors.New("translate each, then record it with go run ./docs stamp LANG PAGE SECTION")

// status prints how each translation stands against English to w, as
// "go run ./docs status" with args does, reading the docs tree docs and,
// for the reasons of SDK tables, the lessons files in the repository root.
// With -check it returns an error wrapping errBehind, which says what to
// do, if any section is behind.
func status(w io.Writer, root, docs fs.FS, args []string) error {
	flags := flag.NewFlagSet("status", flag.ContinueOnError)
	flags.SetOutput(w)
	verbose := flags.Bool("v", false, "also list every section behind, every page not translated and every section English no longer has")
	check := flags.Bool("check", false, "exit with status 1 if any section is behind (a check before a release, not a CI gate: English changes land with translations behind)")
	flags.Usage = func() {
		fmt.Fprintf(w, "usage: go run ./docs status [-v] [-check]\n\n%s\n\n", site.StatusFormat)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		flags.Usage()
		return fmt.Errorf("status takes no arguments, only flags: %s", strings.Join(flags.Args(), " "))
	}
	list, err := site.Translations(docs)
	if err != nil {
		return err
	}
	if err := site.AddReasons(list, root, docs); err != nil {
		return err
	}
	n, err := site.WriteStatus(w, list, *verbose)
	if err != nil {
		return err
	}
	if *check && n > 0 {
		return fmt.Errorf("%s behind English (go run ./docs status -v lists them): %w", site.SectionsAre(n), errBehind)
	}
	return nil
}

// stamp records, in the front matter of one translated page under the
// docs folder dir, that the sections args name (every section if it names
// none) follow the English page as it is now, and in its reasons file the
// same of its reasons (the section reasons, or reasons/KEY), reading the
// lessons files in the repository root; it prints each to w.
func stamp(w io.Writer, root fs.FS, dir string, args []string) error {
	flags := flag.NewFlagSet("stamp", flag.ContinueOnError)
	flags.SetOutput(w)
	force := flags.Bool("force", false, "stamp a section even though its translated text has not changed since the English did (for an English edit that needs no change in translation); never one whose numbers differ from the English")
	flags.Usage = func() {
		fmt.Fprintf(w, "usage: go run ./docs stamp [-force] LANG PAGE [SECTION...]\n\n"+
			"Records that the sections named of PAGE in LANG (all it has, if none is\n"+
			"named) follow the English page as it is now. Run it after translating\n"+
			"them again; it refuses a section whose translation did not change since\n"+
			"the English did, unless -force, and a section whose numbers are not\n"+
			"those of the English section, even with -force. The SECTION reasons\n"+
			"stamps the page's translated SDK reasons (PAGE/reasons/LANG.json),\n"+
			"reasons/LESSON/SDK/MAIN one of them, in the same way.\n\n")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	args = flags.Args()
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return fmt.Errorf("flag %s after the language: put flags first, as in go run ./docs stamp -force fr tool-errors wire", a)
		}
	}
	if len(args) < 2 {
		return errors.New("stamp needs a language and a page: go run ./docs stamp fr tool-errors [section-id...]")
	}
	lang, page := args[0], args[1]
	stamped, err := site.StampTranslation(root, os.DirFS(dir), page, lang, *force, args[2:]...)
	if err != nil {
		return err
	}
	for _, s := range stamped {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(s.File)), s.Data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "Stamped docs/%s:\n", s.File)
		for _, sec := range s.Sections {
			fmt.Fprintf(w, "  %s\n", sec)
		}
	}
	return nil
}
