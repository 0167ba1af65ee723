// Package callpath measures which functions of the module one real stdio
// call runs: set-mode coverage of a one-call session less an empty
// session. Its command is internal/callpath/cmd/callpath; go generate
// ./... pins what it measures of every case as data, [PinFile], which
// the guide's page that walks one call through the core is held to.
//
// # What it measures
//
// A session is one run of a chapter's server over stdio. The empty session
// gets nothing: its stdin ends at once, so it runs only what every session
// runs (flag parsing, the server's setup, the read loop starting and
// ending). A case's session gets one modern request line, then the end of
// stdin: a modern (2026-07-28) request carries its protocol version and
// client capabilities in params._meta and needs no initialize, so that one
// line is the whole session. Each session runs -runs times (5 by default).
// A function counts for the call when every session with the call ran it
// and no empty session did: what an empty session runs is not part of the
// call. A function that some sessions of a kind run and others do not (a
// goroutine that the end of stdin may or may not let start, say) counts
// by the same rule, and is also listed as having "ran in some of the
// sessions of a kind and not in others".
//
// Two counts are given for each case:
//
//   - functions: function declarations (functions and methods), a func
//     literal's blocks counting for the declaration that holds it, as go
//     tool covdata func folds them. A declaration ran when a block of it or
//     of a literal in it ran. Func literals at package level (in a var's
//     initializer) belong to no declaration and are left out, as covdata
//     func leaves them out. This count equals what covdata func reports
//     covered in a session with the call and not in an empty one (a test
//     checks it).
//   - with closures: declarations and func literals, each a function of
//     its own that ran when a block of its own (not of a literal in it)
//     ran. This is issue 17's "closures included".
//
// Issue 17 also quotes a count "with a warm-up call, then one measured
// call". Set-mode coverage is cumulative for a process, so a session with a
// warm-up call and a measured call covers what a session with the warm-up
// call alone covers, and that count cannot be taken this way; what one
// call runs beyond an empty session is the measure given here. Work done
// once, on the first call (a sync.Once, a cache filled), is part of it.
//
// Functions of the chapter's own main package (its handler) are listed
// apart as the chapter's own and not counted: the measure is of the code a
// reader opens beside the chapter. Func literals are named as a stack trace
// names them when their function is not inlined, numbered in source order:
// (*Server).runTool.func1, (*Server).runTool.func1.1 for a literal in that
// one, init.func1 for one at package level (numbered across the package's
// files that ran, in name order, which is the compiler's order unless a
// file none of whose code ran holds one too). Type parameters show as
// [...]. A function whose body has no statements has no coverage block and
// is never counted.
//
// # How
//
// Measure builds the chapter into a temporary directory with
//
//	go build -cover -covermode=set -coverpkg=<module path>/... -o TMP/server ./<chapter>
//
// and runs the binary for each session with GOCOVERDIR set to a new
// directory, writing the request line (or nothing) on a pipe to its stdin
// and closing it. It reads each session's coverage with go tool covdata
// textfmt, parsing the text profile itself (a mode line, then
// file:line.col,line.col statements count for each block), and attributes
// each covered block to the innermost function declaration or func literal
// whose body holds it, found with go/parser in the module's source. Every
// session must exit with status 0 within -timeout; the empty session must
// write nothing on stdout, and a case's session exactly one reply to id 1 of
// the case's kind (a result without "isError":true for success and
// read-found, one with "isError":true for tool-error, an error object for
// read-not-found). Anything else is an error that shows
// what was sent and what came back. The temporary directory is removed at
// the end.
//
// # The cases
//
// [Cases] are the measured calls: success and tool-error for
// chapters/01-tool-errors (get_author with the titles "Dune" and
// "Nothing"), read-found and read-not-found for chapters/03-resources
// (resources/read of books://Dune and books://Nothing).
//
// # The command
//
//	go run ./internal/callpath/cmd/callpath [-chapter DIR] [-case NAMES] [-runs N] [-v] [-json]
//
// prints, for each case, the request, the reply, both counts with the
// functions of each package, and the chapter's own functions, and ends
// with one summary line for each case, as [PinCase.Summary] gives it for
// a pinned case (its example prints the pinned success's).
//
// # The pin
//
// go generate ./... measures every case [PinRuns] times and writes [Pin]
// as JSON to [PinFile]; TestPin, in go test ./internal/callpath, measures
// again and fails while the file is stale, naming what changed and the
// command. The pin names each function by its file and the name a :::go
// line of the docs gives it, and holds no line number: moving code leaves
// it current. Besides each case's functions it holds what every session
// runs (Setup), which the docs may show, and the functions that ran in
// some sessions of a kind and not in others (Unsteady), which neither the
// comparison nor the docs hold to anything. [Cap] is what the success may
// run; a test holds the pin to it.
package callpath
