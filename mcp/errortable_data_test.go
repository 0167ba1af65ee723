package mcp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// updating reports whether the tests run with -update, which rewrites the
// files derived from the code. The flag is internal/exchange's, which this
// package's tests link, and which rewrites a script's pins with it.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// errorTableFile is the error table as data: what the guide's site reads
// to render it (the ":::errors mcp" and ":::error mcp ROW" directives of
// internal/site), and what any other program can walk without importing
// the table, which is unexported.
const errorTableFile = "errortable.json"

// refreshTable is the command that rewrites errorTableFile, from the
// module's root, with everything else derived from the code.
const refreshTable = "go generate ./..."

// tableData is the content of errorTableFile.
type tableData struct {
	About string    `json:"about"`
	Rows  []rowData `json:"rows"`
}

// rowData is one row of errorTable as data.
type rowData struct {
	Name       string `json:"name"`               // the kind without "err", in kebab case: unknown-tool
	Kind       string `json:"kind"`               // the kind's Go name: errUnknownTool
	Reply      string `json:"reply"`              // "error", "toolResult", "handlerError" or "none"
	Code       int    `json:"code,omitempty"`     // the JSON-RPC code of an error
	CodeName   string `json:"codeName,omitempty"` // the constant naming it: CodeInvalidParams
	Message    string `json:"message"`
	Data       string `json:"data,omitempty"`
	HTTPLegacy int    `json:"httpLegacy"`
	HTTPModern int    `json:"httpModern"`
	Level      string `json:"level"` // INFO, WARN or ERROR
}

// aboutTable is what errorTableFile says of itself.
const aboutTable = "The error table of package mcp (errorTable in errortable.go), one row per error the server sends, in the table's order. " +
	"Written by " + refreshTable + "; do not edit. " +
	"name is the row's anchor in the guide; reply is \"error\" for a JSON-RPC error with code, message and data, " +
	"\"toolResult\" for a tool result with isError set whose text is message, " +
	"\"handlerError\" for a handler's own *mcp.Error, sent with the code, message and data it chose, " +
	"\"none\" for what ends a request with no error sent, whose message is the server's log line. " +
	"Each <word> in message and data is a value filled in; data is a text, or a JSON object when it starts with \"{\". " +
	"httpLegacy and httpModern are the HTTP statuses in a session and served statelessly: " +
	"0 where the error cannot arise over HTTP, -1 where the status follows the code (400 for a bad request's codes, 404 for -32601, else 200). " +
	"level is the level of the line the server logs."

// TestErrorTableData checks that errorTableFile holds the error table as
// it is, or with -update writes it; go generate ./... runs it so
// (internal/refresh). It never writes without -update, so that a test run
// leaves the checkout as it is.
func TestErrorTableData(t *testing.T) {
	want, err := errorTableJSON(parseOwnFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(errorTableFile)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if updating() {
		if err := os.WriteFile(errorTableFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", errorTableFile)
		return
	}
	if err != nil {
		t.Fatalf("%v: write it with\n\n\t%s", err, refreshTable)
	}
	t.Errorf("mcp/%s differs from errorTable (mcp/errortable.go): the guide would render a stale table.\n"+
		"Edit the table, not the file, then refresh it from the module's root with:\n\n\t%s\n\n"+
		"or, for this file only:\n\n\tgo test ./mcp -run '^TestErrorTableData$' -update", errorTableFile, refreshTable)
}

// errorTableJSON returns the content of errorTableFile: the rows of
// errorTable, each with the name of the variable the package's files
// declare it as, one row a line.
func errorTableJSON(files []*ast.File) ([]byte, error) {
	kinds, err := kindNames(files)
	if err != nil {
		return nil, err
	}
	if len(kinds) != len(errorTable) {
		return nil, fmt.Errorf("found %d rows in the source, errorTable has %d", len(kinds), len(errorTable))
	}
	codes, err := codeNames(files)
	if err != nil {
		return nil, err
	}
	data := tableData{About: aboutTable}
	for k, kind := range kinds {
		row := errKind(k).row()
		if want := kebab(strings.TrimPrefix(kind, "err")); row.name != want {
			return nil, fmt.Errorf("row %s is named %q, want %q: the variable's name without \"err\", in kebab case", kind, row.name, want)
		}
		d := rowData{
			Name: row.name, Kind: kind, Reply: "error",
			Message: row.message, Data: row.data, HTTPLegacy: row.legacy, HTTPModern: row.modern, Level: row.level.String(),
		}
		switch row.code {
		case toolResult:
			d.Reply = "toolResult"
		case fromHandler:
			d.Reply = "handlerError"
		case noReply:
			d.Reply = "none"
		default:
			d.Code, d.CodeName = row.code, codes[row.code]
			if d.CodeName == "" {
				return nil, fmt.Errorf("row %s: no exported Code constant has its code %d", kind, row.code)
			}
		}
		data.Rows = append(data.Rows, d)
	}
	// One row a line, so that a change to a row is a change to a line.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the placeholders' angle brackets, as written
	b.WriteString("{\n  \"about\": ")
	enc.Encode(data.About)
	b.Truncate(b.Len() - 1)
	b.WriteString(",\n  \"rows\": [\n")
	for i, d := range data.Rows {
		b.WriteString("    ")
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
		if i < len(data.Rows)-1 {
			b.Truncate(b.Len() - 1)
			b.WriteString(",\n")
		}
	}
	b.WriteString("  ]\n}\n")
	var check tableData
	if err := json.Unmarshal(b.Bytes(), &check); err != nil || len(check.Rows) != len(data.Rows) {
		return nil, fmt.Errorf("the data written does not read back: %v", err)
	}
	return b.Bytes(), nil
}

// codeNames returns the exported constants named Code... that the files
// declare, by value.
func codeNames(files []*ast.File) (map[int]string, error) {
	names := make(map[int]string)
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Code") || i >= len(vs.Values) {
						continue
					}
					tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, types.ExprString(vs.Values[i]))
					v, ok := constant.Int64Val(tv.Value)
					if err != nil || !ok {
						return nil, fmt.Errorf("constant %s: %s is not an integer literal (%v)", n.Name, types.ExprString(vs.Values[i]), err)
					}
					names[int(v)] = n.Name
				}
			}
		}
	}
	return names, nil
}

// kebab turns a Go name into lower-case words joined by "-", keeping
// initialisms whole: HTTPMethod is http-method, NoURI no-uri.
func kebab(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, c := range rs {
		if i > 0 && unicode.IsUpper(c) &&
			(!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{"UnknownTool": "unknown-tool", "HTTPMethod": "http-method", "NoURI": "no-uri",
		"JSONRPCVersion": "jsonrpc-version", "HeaderBase64": "header-base64", "BadID": "bad-id", "ArgumentGoType": "argument-go-type"} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

// parseOwnFiles parses the non-test Go files of the package in the
// current directory, package mcp.
func parseOwnFiles(t *testing.T) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// kindNames returns the names of the rows' variables, in the order of
// errorTable: the names of the variable block that starts with
// errHandlerError, each given a row by a constructor (newRow1(...)), which
// adds the rows to errorTable in that order.
func kindNames(files []*ast.File) ([]string, error) {
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR || len(g.Specs) == 0 || g.Specs[0].(*ast.ValueSpec).Names[0].Name != "errHandlerError" {
				continue
			}
			var names []string
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					return nil, fmt.Errorf("the rows must be one variable block, each variable given a row by a constructor, as errHandlerError is")
				}
				if call, ok := vs.Values[0].(*ast.CallExpr); !ok || !isConstructor(call.Fun) {
					return nil, fmt.Errorf("row %s is not made by a constructor", vs.Names[0].Name)
				}
				names = append(names, vs.Names[0].Name)
			}
			return names, nil
		}
	}
	return nil, fmt.Errorf("no variable block starting with errHandlerError")
}

// isConstructor reports whether fn names a row's constructor, newRow1 or
// another function named new...Row...
func isConstructor(fn ast.Expr) bool {
	id, ok := fn.(*ast.Ident)
	return ok && strings.HasPrefix(id.Name, "new") && strings.Contains(id.Name, "Row")
}
