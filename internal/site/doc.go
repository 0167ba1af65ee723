// Package site renders the guide: Markdown pages, one file per page and
// language, into a static HTML site whose code and transcripts come from the
// repository itself.
//
// # Sources
//
// The docs tree holds pages.txt (the page slugs, in reading order), one
// directory per page with a Markdown file per language (overview/en.md),
// lang/<code>.json (a language's name and interface strings) and theme/ (the
// page template, style sheet and script). A page starts with front matter:
//
//	---
//	title: 01 Erreurs d’outil
//	summary: Une erreur Go ordinaire devient un résultat que le modèle lit.
//	source:
//	  (top): 3f2a9c0b71de 8e1d0a4b5c27
//	  why: 9d04e1c2aa37 0c6f19b2e4d8
//	  wire: 51be0c7f3d10 a7c3e95d1f02
//	---
//
// source is set only on translations: the record, section by section, of
// the English text they follow. A section is a level-2 heading and all that
// follows it up to the next one; (top) is the title, the summary and the
// paragraphs before the first heading. Each line holds the [Version] of the
// English section as it was translated, then the Version of the
// translation's own section as it was then.
//
// A translation may lag: an English change never fails the build. A
// section is behind when its English text changed since the record, when
// the translation lacks it (English added it), when the translation has
// it elsewhere among the others (English moved it), or when the numbers it
// writes are not those of the English section, in any notation (7,3 and
// 7.3 are one number; versions, codes and issue numbers are numbers too),
// whatever the record says. "go run ./docs status"
// counts the sections behind; the page opens with a banner listing them,
// and each carries a note under its heading. A section behind shows the
// translation's own text if that still has the English section's heading
// ids, directives, code blocks, code spans and link destinations, and
// otherwise the English section, marked as English (so the reader sees
// the current transcript, and every link and anchor still works). Sections
// the English page no longer has are left out. The page always follows the
// English order.
//
// After a section is translated again, "go run ./docs stamp LANG PAGE ID"
// records it ([StampPage]); it refuses a section whose translation has not
// changed since English moved, unless -force, and a section whose numbers
// differ from the English, even with -force. An English edit to one
// section costs one section in each language.
//
// Every heading carries an explicit id ({#some-id}), so that anchors are the
// same in every language; the title is the page's only level-1 heading. In
// every section that is current, a translation keeps the English section's
// heading ids and directives, in order, and its code blocks, code spans
// and link destinations; [Build] fails otherwise.
//
// # Directives
//
// A line of its own that starts with ":::" is a directive. Nothing in the
// guide's code or transcripts is pasted; directives include it. The
// directives are a table (directives.go), each with its syntax, its help
// and an example; CONTRIBUTING.md's directive reference is rendered from
// it, and a test fails when the two differ. These lines, like the table's
// examples, resolve against the repository, which a test checks:
//
//	:::go chapters/01-tool-errors/main.go getAuthor authorArgs
//	:::go cmd/mcpc/main.go (exitResult)
//	:::go chapters/01-tool-errors/main.go
//	:::example chapters/01-tool-errors/example_test.go Example_toolError
//	:::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error
//	:::message mcp "Unknown tool: <name>"
//	:::message mcp/client "mcp: connection closed" ": the server closed its output"
//	:::error mcp unknown-tool
//	:::errors mcp
//	:::sdks sdks/lessons.json
//	:::file deploy/nginx/mcp.conf nginx
//	:::callpath internal/callpath/walks.json success tool-error read-not-found
//	:::also internal/jsonwire/decode.go messageScanner.str messageScanner.strPtr
//
// go includes declarations by name (Type.Method for a method, (Name) for the
// whole const, var or type group that declares Name), a region between
// "// region: name" and "// endregion" comments, or the whole file;
// declarations that are not next to each other in the file are joined by a
// "// ..." line. example includes an Example function's body and its
// checked output. transcript includes one case of a testscript archive, its
// requests and its pinned replies, which the archive's script must check
// with "pin stdout want/<case>.jsonl"; the log it pins is shown only for a
// case run with "! exchange", whose server failed. The archive is the
// guide's, under testdata/scripts, or an SDK module's, under
// sdks/<module>/testdata/scripts, whose servers may die, hang or answer a
// cancelled request.
// message shows an error text and checks that the package in the named
// directory still produces it; a text made of two constants, such as
// an error wrapped with %w, is given as two quoted parts, shown joined.
// error shows one row of the error table of the package in the named
// directory, read from the table as data, the package's errortable.json
// (which package mcp's tests write from mcp/errortable.go: go generate
// ./mcp); errors, on the reference page (slug "errors"), renders the whole table and
// checks that the page explains every row, once, in a section of its own.
// sdks renders the table of a lessons file (sdks/lessons.json): for each
// lesson, the guide's pinned case and what each SDK module's mains send for
// the same requests, "same as the guide" where the JSON after the legacy
// handshake is the same, and otherwise with the lesson's one-line reason,
// without which the build fails; each lesson's row is titled by the page's
// heading of the lesson's id.
// file includes a whole file that is not Go, highlighted as the language
// named. callpath shows the counts of the cases it names from the path
// that internal/callpath measures and go generate ./... pins, with the
// core's code lines, counted at build time; it makes its page a walk
// through the core, which the build holds to the pin both ways (see
// callpath.go): every function a case runs beyond what every session runs
// is shown with :::go or named on an also line, and every function those
// lines name still runs. also names functions a walked case runs that the
// page does not show, by their doc comments and signatures. A wrong number
// of arguments is reported with the directive's syntax.
//
// # Code spans
//
// An inline code span of an English page that names a Go declaration of
// the module must name one that exists, or [Build] fails, naming the page,
// the section, the span and the fix. A span is read as Go when it parses as
// a Go expression, and is checked where it names pkg.Name (pkg the last
// element of a module package's directory, such as mcp or client; Name
// exported), Type.Member (Type an exported type of a public package of the
// module, or a type of a package the page includes code from), or, on a
// page with :::go or :::example lines, when it is a single lowerCamel name
// (getAuthor), which one of the packages those lines name must declare.
// Names qualified by something else (errors.Is, data.uri), single words,
// UpperCamel names alone (Python's ToolError), snake_case and JSON names (a
// struct tag's, or a key the page shows, such as isError) are not checked.
// CONTRIBUTING.md's directive reference states the rule in full
// (codeSpanRule).
//
// A directive that does not resolve, a heading without an id, a link to a
// page or anchor that does not exist, emphasis marks (** or __) left showing
// in the text because they did not close: each fails [Build], which
// returns a [*BuildError] naming the file, the section, what is wrong and
// the fix of each, once for a cause that the translations share. The last
// catches a trap of scripts without spaces between words: in Korean,
// **`code`**를 shows its asterisks, **`code`를** does not.
//
// # Search
//
// Each language has its own search index, assets/search-<code>.js, of its
// own pages, one entry per section, which the theme's script searches as
// the reader types. A section is indexed by tokens: runs of letters, marks
// and digits in lower case (so Devanagari's vowel signs do not split a
// word); Han, kana and Hangul, written without spaces, by each pair of
// neighbouring characters and each run's last character. The script cuts
// the query the same way and finds the sections in which every one of its
// tokens begins a token, so "isErr" finds isError and a two-character
// Japanese or Chinese query finds the text that holds it.
//
// # Scripts
//
// The theme sets each script in fonts its readers already have, chosen by
// the lang attribute (of the page, and of any element in another
// language, such as the switcher's links): Devanagari, Japanese,
// Simplified and Traditional Chinese, Korean and Cyrillic have stacks of
// their own, with more line height for Devanagari and CJK. Korean breaks
// lines between words, Japanese and Chinese between characters under the
// strict rules; nothing is wider than a phone's screen: long code, tables
// and URLs break or scroll in their own box. Every page lists its
// translations as rel=alternate links (and English as x-default); the
// language switcher opens the other language at the same section.
//
// # For programs
//
// Every page is also written as Markdown beside its HTML (tool-errors.md,
// fr/tool-errors.md), which the page's head names as rel=alternate
// type=text/markdown: its title and summary, then its Markdown with each
// directive replaced by what it shows, as Markdown (a transcript's
// requests and pinned replies pretty-printed in fenced JSON blocks, code
// in fenced blocks, the error table as a table), and links to pages led
// to their Markdown. At the top, llms.txt indexes the pages as the
// llms.txt convention has it, llms-full.txt holds every English page's
// Markdown in reading order, and sitemap.xml lists every page in every
// language with its alternates, by absolute addresses under
// [Config].BaseURL (with none, there is no sitemap).
//
// # Run buttons
//
// Given the chapters compiled for the browser ([Config].Browser), each
// chapter transcript gets a Run button and each of its requests an Edit
// button. The site's script loads the chapter's module on the first Run,
// from script files under assets/run/ (a page opened from file:// may load
// a script but not fetch a .wasm file), starts it with the toolchain's
// wasm_exec.js, and sends the requests to the server that mcp.Main hands
// the page, in lock step, on a fresh connection for every run. The live
// replies are shown beside the pinned ones and compared byte for byte. The
// site needs no server: [Handler] serves it as any static host would.
package site
