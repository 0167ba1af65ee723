package site

import (
	"fmt"
	"html/template"
	"strings"
)

// directive is one kind of ":::" line: what it is called, how it is
// written, what it does, and the function that resolves it. The table
// directives is the only list of them: resolve looks a line's kind up in
// it, and CONTRIBUTING.md's directive reference is rendered from it
// ([directiveReference]).
type directive struct {
	// name is the word after ":::".
	name string
	// syntax is the line as a contributor writes it, in the notation
	// syntaxNotation explains: UPPER words are arguments, [X] is
	// optional, X... is one or more. The number of arguments resolve
	// accepts is read from it (see arity).
	syntax string
	// help is one paragraph of Markdown: what the directive shows and what
	// it checks.
	help string
	// example is a line that resolves against the repository, which a
	// test checks.
	example string
	// resolve renders the directive n, given its arguments (without the
	// name): its HTML and its plain text, for the search index.
	resolve func(r *resolver, n *directiveNode, args []string) (template.HTML, string, error)
}

// directives are the generator's directives, in the order the reference
// lists them.
var directives = []*directive{
	{
		name:    "go",
		syntax:  ":::go FILE [NAME...]",
		example: ":::go chapters/01-tool-errors/main.go getAuthor authorArgs",
		help: "Includes Go source from FILE: the declarations called NAME, in the order given, each with its doc comment " +
			"(`Type.Method` for a method; `(Name)` for the whole `const`, `var` or `type` group that declares Name); " +
			"or the lines between `// region: NAME` and `// endregion` for a single `region:NAME`; or, with no NAME, the whole file. " +
			"Declarations that are not next to each other in the file are joined by a `// ...` line, so that nothing between them is silently dropped. " +
			"Fails when FILE does not parse or declares no NAME.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.goDecls(args[0], args[1:])
		},
	},
	{
		name:    "example",
		syntax:  ":::example FILE EXAMPLE",
		example: ":::example chapters/01-tool-errors/example_test.go Example_toolError",
		help: "Includes the body of the Example function EXAMPLE of the test file FILE and the output its `// Output:` comment pins, " +
			"which `go test` checks: the client's view of a chapter. Fails when FILE has no such function, or when it has no `// Output:` comment.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.example(args[0], args[1])
		},
	},
	{
		name:    "transcript",
		syntax:  ":::transcript ARCHIVE CASE",
		example: ":::transcript testdata/scripts/01-tool-errors/modern.txtar tool-error",
		help: "Shows one case of a testscript archive, the guide's under `testdata/scripts/` or an SDK module's under `sdks/<module>/testdata/scripts/`, as a conversation: the requests in `req/CASE.jsonl` and the replies pinned in `want/CASE.jsonl`, pretty-printed. " +
			"The archive's script must check the case with `pin stdout want/CASE.jsonl` (or `cmp`), so that what the page shows is what the server answers; " +
			"a case it runs with `! exchange` (a server that dies, hangs or leaves a request unanswered) may lack replies, and its pinned log, which ends with the `exchange:` lines that say how the server failed, is shown under it. " +
			"`go generate ./...` writes and refreshes the pins. A chapter's transcript gets a Run button in the site. " +
			"Fails when the archive has no such case, pins no replies, or does not check them.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.transcript(args[0], args[1])
		},
	},
	{
		name:    "message",
		syntax:  `:::message DIR "TEXT"...`,
		example: `:::message mcp/client "mcp: connection closed" ": the server closed its output"`,
		help: "Shows an error text, and checks that the Go package in DIR still produces it: every literal part of TEXT " +
			"(what lies outside `<placeholders>`) must occur in one of the package's string constants. " +
			"A text made of two constants, such as an error wrapped with `%w`, is given as two quoted parts, shown joined. " +
			"TEXT is Go-quoted: write `\\\"` for a quote inside it. Fails when no string constant of the package holds a part.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.message(args[0], args[1:])
		},
	},
	{
		name:    "error",
		syntax:  ":::error DIR ROW",
		example: ":::error mcp unknown-tool",
		help: "Shows one row of the error table of the Go package in DIR: code, message, data, HTTP status in each era and log level, " +
			"read from the table as data, `DIR/errortable.json`, which the package's tests write from the table " +
			"(`go generate ./...` writes `mcp/errortable.json` from `errorTable` in `mcp/errortable.go`, and `go test ./mcp` fails while it is stale). " +
			"ROW is the row's name there, its kind without `err` in kebab case: `errUnknownTool` is `unknown-tool`. " +
			"Away from the reference page (slug `errors`) the card links to the row's section there. Fails when the table has no such row.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.errorCard(args[0], args[1])
		},
	},
	{
		name:    "errors",
		syntax:  ":::errors DIR",
		example: ":::errors mcp",
		help: "Renders the whole error table of the Go package in DIR (from `DIR/errortable.json`, as `:::error` reads it), one line per row, on the reference page (slug `errors`, where the cards of other pages link), and checks the page against it both ways: " +
			"every row has a section whose heading id is the row's name, right under it `:::error DIR ROW`, then a paragraph explaining when the error happens and what to do; " +
			"and no card names a row twice or a row the table lacks.",
		resolve: func(r *resolver, n *directiveNode, args []string) (template.HTML, string, error) {
			return r.errorsOverview(n, args[0])
		},
	},
	{
		name:    "sdks",
		syntax:  ":::sdks FILE",
		example: ":::sdks sdks/lessons.json",
		help: "Renders the table of a lessons file FILE, such as `sdks/lessons.json`: for each lesson, what the guide's pinned case sends, then what each SDK module's default main and fixed main send for the same requests, " +
			"read from their pins under `sdks/<module>/testdata/scripts/<main>/`; a cell is \"same as the guide\" when every reply after the legacy handshake, if any, is the same JSON value and the server failed in no way, " +
			"and any other cell shows under it the one-line reason that the lesson's `differs` gives for its main; " +
			"a translated page shows the reason's translation from `docs/<page>/reasons/<lang>.json` while it follows the English reason as it is, and otherwise the English one, marked as such. " +
			"The SDK's version in each column is read from its module's `go.mod`. Each lesson's row is titled by the page's heading whose id is the lesson's id, and the protocol version its case speaks. " +
			"Fails when a lesson has no such heading, when an SDK's archive lacks the case or sends other requests than the guide's, when a pin does not resolve as `:::transcript` requires, " +
			"when a cell that differs has no reason or a \"same\" cell has one (every such cell of the file is reported), when the page or the reasons name an SDK version other than its `go.mod`'s, or when a translated page's reasons file is not a JSON object of entries.",
		resolve: func(r *resolver, n *directiveNode, args []string) (template.HTML, string, error) {
			return r.sdks(n, args[0])
		},
	},
	{
		name:    "file",
		syntax:  ":::file FILE LANGUAGE",
		example: ":::file deploy/nginx/mcp.conf nginx",
		help: "Includes the whole of FILE, a file that is not Go (such as a configuration a test runs), highlighted as LANGUAGE, a name the highlighter knows " +
			"(`nginx`, `json`, `yaml`). Fails when FILE is missing or empty.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.file(args[0], args[1])
		},
	},
	{
		name:    "callpath",
		syntax:  ":::callpath PIN CASE...",
		example: ":::callpath internal/callpath/walks.json success tool-error read-not-found",
		help: "Shows, for each CASE of PIN (the measured path that `internal/callpath` writes and `go generate ./...` refreshes, `internal/callpath/walks.json`), " +
			"the request it sends and how many functions, files and packages of the module it runs beyond an empty session, then the core's code lines, counted at build time, and the cap on a success. " +
			"It makes the page a walk through the core, which the build holds to PIN both ways: every function a CASE runs beyond what every session runs (the chapter's handler included) " +
			"must be shown with `:::go FILE NAME` or named on an `:::also FILE NAME...` line, once; and every function that a `:::go` or `:::also` line of the page names, in a file of the core's packages or of the walked chapters, " +
			"must be one a CASE runs, one every session runs (the read loop, setup), or one that runs in some sessions only (a timer), which are exempt. " +
			"The message names the function, its file and the fix. Tests, whole files, regions and declarations that are not functions are not held. " +
			"Fails when PIN has no such CASE.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.callpathFigure(args[0], args[1:])
		},
	},
	{
		name:    "also",
		syntax:  ":::also FILE NAME...",
		example: ":::also internal/jsonwire/decode.go messageScanner.str messageScanner.strPtr",
		help: "On a page with `:::callpath`, names functions of FILE that a walked call also runs, which the page does not show with `:::go` (the scanner's small helpers, say): " +
			"they are shown by their doc comment and signature, without their bodies, and the build checks each name against the pin as `:::callpath` says. " +
			"NAME is as `:::go` takes it (`Type.Method` for a method). Fails when FILE declares no such function, and on a page without `:::callpath`.",
		resolve: func(r *resolver, _ *directiveNode, args []string) (template.HTML, string, error) {
			return r.also(args[0], args[1:])
		},
	},
}

// lookupDirective returns the directive called name, or nil.
func lookupDirective(name string) *directive {
	for _, d := range directives {
		if d.name == name {
			return d
		}
	}
	return nil
}

// directiveNames lists the directives' names, for an unknown one's error.
func directiveNames() string {
	var names []string
	for _, d := range directives {
		names = append(names, d.name)
	}
	return strings.Join(names, ", ")
}

// arity returns how many arguments d takes, as its syntax says: each word
// after the name is one, [X] may be left out, and X... may repeat (max is
// then -1, no limit).
func (d *directive) arity() (min, max int) {
	words := strings.Fields(d.syntax)[1:]
	for _, w := range words {
		optional := strings.HasPrefix(w, "[")
		w = strings.Trim(w, "[]")
		if !optional {
			min++
		}
		if strings.HasSuffix(w, "...") {
			max = -1
		} else if max >= 0 {
			max++
		}
	}
	return min, max
}

// checkArgs says what is wrong when args is not a number of arguments d
// takes, in its syntax's words.
func (d *directive) checkArgs(args []string) error {
	min, max := d.arity()
	if n := len(args); n < min || (max >= 0 && n > max) {
		s := "s"
		if n == 1 {
			s = ""
		}
		return fmt.Errorf("got %d argument%s, want %s", n, s, d.syntax)
	}
	return nil
}
