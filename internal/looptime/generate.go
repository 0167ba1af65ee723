package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// An edit replaces the text old of a repository's file by new; an empty old
// appends new.
type edit struct{ file, old, new string }

// newCase is CONTRIBUTING.md's walkthrough, the page aside: a new case of
// chapter 01 whose message holds tag, so that each run pins new bytes.
func newCase(tag string) []edit {
	return []edit{
		{"chapters/01-tool-errors/main.go", "import (\n\t\"context\"\n", "import (\n\t\"context\"\n\t\"errors\"\n"},
		{"chapters/01-tool-errors/main.go", "\tauthor, ok := catalog[args.Title]\n",
			"\tif args.Title == \"\" {\n\t\treturn \"\", errors.New(\"The title is empty (" + tag + "): ask for a book by its exact title.\")\n\t}\n\tauthor, ok := catalog[args.Title]\n"},
		{"testdata/scripts/01-tool-errors/modern.txtar", "pin stderr log/tool-error.log\n",
			"pin stderr log/tool-error.log\n\nexchange req/empty-title.jsonl 01-tool-errors\npin stdout want/empty-title.jsonl\npin stderr log/empty-title.log\n"},
		{"testdata/scripts/01-tool-errors/modern.txtar", "",
			"-- req/empty-title.jsonl --\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_author","arguments":{"title":""},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"},
	}
}

// generate times go generate ./... for a new case, runs times, in a copy of
// the repository; with fresh, in a new copy each time, with no warm-up, as
// the docs' walkthrough test runs it: Go compiles the module's packages
// again for a folder it has not seen (the pins' cache is the user's, and
// shared).
func generate(runs int, fresh bool) error {
	dir, err := copyRepository()
	if err != nil {
		return err
	}
	defer func() { os.RemoveAll(dir) }()
	if !fresh {
		fmt.Printf("copied the repository; load average %s; warming the caches with go generate ./...\n", loadavg())
		if _, _, err := goGenerate(dir); err != nil {
			return err
		}
	}
	var times, cpus []time.Duration
	for i := range runs {
		if fresh && i > 0 {
			os.RemoveAll(dir)
			if dir, err = copyRepository(); err != nil {
				return err
			}
		}
		restore, err := apply(dir, newCase(fmt.Sprintf("run %d at %d", i+1, time.Now().UnixNano())))
		if err != nil {
			return err
		}
		d, cpu, err := goGenerate(dir)
		if err != nil {
			return err
		}
		fmt.Printf("run %d: %.1fs, %.1fs of CPU\n", i+1, d.Seconds(), cpu.Seconds())
		times, cpus = append(times, d), append(cpus, cpu)
		if err := restore(); err != nil {
			return err
		}
	}
	report("go generate ./... for one new case", times)
	report("its CPU time (user and system, go generate and every process it waited for)", cpus)
	return nil
}

// goGenerate runs go generate ./... in dir and returns how long it took,
// and the CPU time it and the processes it waited for used: on a busy
// machine, the wall time grows with the load and the CPU time much less.
func goGenerate(dir string) (wall, cpu time.Duration, err error) {
	cmd := exec.Command("go", "generate", "./...")
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("go generate ./...: %v\n%s", err, out)
	}
	return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// apply makes the edits in the repository at dir, and returns the function
// that puts the files back as they were.
func apply(dir string, edits []edit) (restore func() error, err error) {
	saved := make(map[string][]byte)
	restore = func() error {
		for name, b := range saved {
			if err := os.WriteFile(name, b, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range edits {
		name := filepath.Join(dir, filepath.FromSlash(e.file))
		b, err := os.ReadFile(name)
		if err != nil {
			return restore, err
		}
		if _, ok := saved[name]; !ok {
			saved[name] = b
		}
		switch {
		case e.old == "":
			b = append(b, e.new...)
		case bytes.Count(b, []byte(e.old)) != 1:
			return restore, fmt.Errorf("%s does not hold %q once: the measurement's edit needs updating", e.file, e.old)
		default:
			b = bytes.Replace(b, []byte(e.old), []byte(e.new), 1)
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return restore, err
		}
	}
	return restore, nil
}

// copyRepository copies the repository's files, as git lists them (tracked,
// and new ones not ignored), into a new temporary directory.
func copyRepository() (string, error) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("run me inside the repository (git rev-parse: %v)", err)
	}
	root := strings.TrimSpace(string(top))
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files: %v", err)
	}
	dir, err := os.MkdirTemp("", "looptime")
	if err != nil {
		return "", err
	}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if err := copyFile(filepath.Join(root, name), filepath.Join(dir, filepath.FromSlash(name))); err != nil && !os.IsNotExist(err) {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// copyFile copies the file src to dst, making dst's directory.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
