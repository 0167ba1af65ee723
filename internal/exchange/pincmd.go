package exchange

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// Pins is the pin command of the scripts in one directory, and the setup
// that lets it write their archives. Register both in testscript.Params:
//
//	p := exchange.Pins{Dir: dir, Update: exchange.Updating(), Package: "./cmd/x"}
//	testscript.Run(t, testscript.Params{
//		Dir:   dir,
//		Cmds:  map[string]func(*testscript.TestScript, bool, []string){"pin": p.Cmd},
//		Setup: p.Setup,
//	})
//
// The command
//
//	pin stdout|stderr <file>
//
// compares the last command's stdout or stderr with <file>, a section of
// the script's archive, byte for byte. When they differ, it fails with a
// message that names the case (the file's name without its directory and
// extension), marks the differing bytes inside the first line that
// differs, and prints the commands that refresh the pins ([RefreshHelp]).
// A missing file fails the same way.
//
// With Update set, it does not fail: it writes the output into the archive
// instead, replacing the section or, if the archive has none of that name
// yet, adding it after the case's other sections (its req/<case>.jsonl,
// say). A new case needs its request file and its script lines only.
type Pins struct {
	// Dir is the directory of the archives, as in testscript.Params.Dir.
	Dir string
	// Update makes the command write the archives instead of failing.
	Update bool
	// Package is the package whose test runs the scripts, as the go
	// command names it from the module's root (./chapters/01-tool-errors),
	// for the command that refreshes only its pins.
	Package string
}

// pendingKey is where Setup keeps a script's pending updates among its
// testscript values.
type pendingKey struct{}

// pending is the sections one script's pin commands will write into its
// archive when the script ends, in the order the script pinned them.
type pending struct {
	archive  string
	sections []txtar.File
}

// Setup prepares a script for the pin command; it is a
// testscript.Params.Setup. With Update set, it arranges for the archive to
// be rewritten when the script ends, after testscript's own updates.
func (p Pins) Setup(env *testscript.Env) error {
	if !p.Update {
		return nil
	}
	u := &pending{}
	env.Values[pendingKey{}] = u
	t := env.T()
	env.Defer(func() {
		if err := u.write(); err != nil {
			t.Log(err)
			t.FailNow()
		}
	})
	return nil
}

// Cmd is the pin command, for testscript.Params.Cmds.
func (p Pins) Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("pin does not support negation: a pin holds the output it expects")
	}
	if len(args) != 2 || (args[0] != "stdout" && args[0] != "stderr") {
		ts.Fatalf("usage: pin stdout|stderr <file>")
	}
	stream, name := args[0], args[1]
	got := ts.ReadFile(stream)
	data, err := os.ReadFile(ts.MkAbs(name))
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		ts.Fatalf("pin: %v", err)
	}
	if err == nil && string(data) == got {
		return
	}
	archive := filepath.Join(p.Dir, ts.Name()+".txtar")
	if !p.Update {
		// The pin by its path from the repository's root, which reads
		// the same from every package (testscript names the archive as
		// Dir gives it).
		pin := name + " of " + RootPath(archive)
		if missing {
			ts.Fatalf("case %s: %s has no pin %s yet\n%s", caseName(name), stream, pin, RefreshHelp(p.Package))
		}
		ts.Fatalf("%s", Stale(caseName(name), stream, pin, string(data), got, p.Package))
	}
	u, _ := ts.Value(pendingKey{}).(*pending)
	if u == nil {
		ts.Fatalf("pin: the scripts' Setup is not Pins.Setup, so -update cannot write %s", archive)
	}
	ar, err := txtar.ParseFile(archive)
	ts.Check(err)
	if !missing && !slices.ContainsFunc(ar.Files, func(f txtar.File) bool { return f.Name == name }) {
		ts.Fatalf("pin: %s is not a section of %s, so -update cannot write it: pin a file of the archive, named as it is there", name, archive)
	}
	if txtar.NeedsQuote([]byte(got)) {
		ts.Fatalf("pin: %s cannot hold %s: it has a line that reads as a file marker (-- name --)", name, stream)
	}
	u.add(archive, name, got)
	// The script goes on with the new pin, as testscript's cmp does.
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(name)), 0o777))
	ts.Check(os.WriteFile(ts.MkAbs(name), []byte(got), 0o666))
	if missing {
		ts.Logf("pinned %s in %s (new)", name, archive)
	} else {
		ts.Logf("pinned %s in %s (updated)", name, archive)
	}
}

// caseName is the case a pinned file belongs to: its name without its
// directory and extension, as want/tool-error.jsonl is tool-error's.
func caseName(file string) string {
	base := path.Base(filepath.ToSlash(file))
	return strings.TrimSuffix(base, path.Ext(base))
}

// add records that the section name of archive is to hold data.
func (u *pending) add(archive, name, data string) {
	u.archive = archive
	for i := range u.sections {
		if u.sections[i].Name == name {
			u.sections[i].Data = []byte(data)
			return
		}
	}
	u.sections = append(u.sections, txtar.File{Name: name, Data: []byte(data)})
}

// write rewrites the archive with the pending sections, if any.
func (u *pending) write() error {
	if len(u.sections) == 0 {
		return nil
	}
	ar, err := txtar.ParseFile(u.archive)
	if err != nil {
		return fmt.Errorf("writing the pins: %v", err)
	}
	for _, f := range u.sections {
		setSection(ar, f)
	}
	if err := os.WriteFile(u.archive, txtar.Format(ar), 0o666); err != nil {
		return fmt.Errorf("writing the pins: %v", err)
	}
	return nil
}

// setSection replaces the section of ar named f.Name with f or, if there is
// none, inserts f after the last section of the same case (see caseName),
// or at the end.
func setSection(ar *txtar.Archive, f txtar.File) {
	at := len(ar.Files)
	for i, old := range ar.Files {
		if old.Name == f.Name {
			ar.Files[i].Data = f.Data
			return
		}
		if caseName(old.Name) == caseName(f.Name) {
			at = i + 1
		}
	}
	ar.Files = append(ar.Files[:at], append([]txtar.File{f}, ar.Files[at:]...)...)
}
