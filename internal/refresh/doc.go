// Command refresh is what go generate ./... runs: it refreshes everything
// derived from the chapters and the code, in one process, running only what
// changed.
//
//	go generate ./...             from the repository's root
//	go run ./internal/refresh     the same
//	go run ./internal/refresh -all  run everything, whatever the cache holds
//
// It refreshes
//
//   - the pins of every archive of testdata/scripts/<chapter>/ and of the
//     SDK modules' sdks/<module>/testdata/scripts/<main>/ (replies and log
//     lines, new cases included): it compiles the main's test binary (go
//     test -c, run by its name as testscript.Main runs it in the main's own
//     tests) and runs the archive's script with the pin command writing
//     the pins, as go test -run ^TestScripts$ -update in the main's
//     package does;
//   - and the files that a package's test checks and, with -update,
//     writes: mcp/errortable.json, CONTRIBUTING.md's directive reference,
//     cmd/mcpc's scripts and the path one call takes through the core,
//     internal/callpath/walks.json (see steps).
//
// # What it runs
//
// An archive's pins are a function of its inputs: the Go version and build
// environment, the sources in the repository of the main's test binary
// (the main, what it imports from the module, such as mcp/, and the test's
// own files), those of this command, and the archive without its pins (the
// script and its requests; a section is a pin when a pin command names
// it). Their key is the SHA-256 of all of them, by content and by path from
// the repository's root; the cache, in the user's cache folder
// (mcpbookshop-guide/generate under os.UserCacheDir, as Go's build cache
// is), keeps each archive as a run with those inputs left it. An archive
// whose key the cache holds is written from it, without running anything;
// the others are run, their mains compiled once each. Since keys hold no
// machine path, every copy of the repository on the machine shares the
// cache: the docs' walkthrough test, which runs go generate ./... in a
// temporary copy, runs only the archives its edit touches.
//
// A step's key is that of its test's sources (and the chapters', for
// cmd/mcpc's scripts and the callpath pin, which run them) and of the files it writes, in the
// state a run left them: it runs again when one of them changed.
//
// A script that fails is reported with its log, and its archive is not
// cached, so the next run runs it again; the command then exits 1.
//
// It says which files it wrote and what it ran, and prints nothing when
// everything was current.
package main

//go:generate go run -trimpath .
