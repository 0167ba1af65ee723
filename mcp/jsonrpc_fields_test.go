package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The tests below guard appendResult, which writes results by hand,
// against a field it does not know: a field added to a result type later
// is set by fill like every other, and the test fails, naming it, unless
// appendResult writes it as encoding/json does.

// fastResult is a type appendResult encodes, with the fields that make it
// decline a value (leaving it to encoding/json), as "Type.Field".
type fastResult struct {
	v        func() any // a new, zero value
	declines []string
}

// fastResults are the types appendResult encodes; TestFastResultsListed
// checks that the list matches its type switch.
var fastResults = []fastResult{
	{func() any { return new(callToolWire) }, []string{"CallToolResult.StructuredContent"}},
	{func() any { return new(readResourceResult) }, nil},
	{func() any { return new(Error) }, nil},
}

// fill sets every field that encoding/json writes of the value v points
// to, recursively, to a value other than its zero, except the fields
// skip names ("Type.Field"). Strings carry their field's name and
// characters that need escaping; slices get two elements; an interface
// gets a string.
func fill(t *testing.T, v reflect.Value, path string, skip []string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), path, skip)
	case reflect.Struct:
		typ := v.Type().Name()
		if typ == "" {
			typ = path // a struct type without a name
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name := typ + "." + f.Name
			if !f.IsExported() && !f.Anonymous || slices.Contains(skip, name) {
				continue // unexported fields are not encoded
			}
			fill(t, v.Field(i), name, skip)
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(` {"field": "` + path + `", "n": [1, 2]} `))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), fmt.Sprintf("%s[%d]", path, i), skip)
		}
	case reflect.String:
		v.SetString(path + ` <"é"> ` + "\n\u2028")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-7)
	case reflect.Interface:
		v.Set(reflect.ValueOf(path + " as any"))
	default:
		t.Fatalf("fill: %s is a %s; teach fill to set one", path, v.Type())
	}
}

// filled returns the value of r with every field set but those in skip.
func filled(t *testing.T, r fastResult, skip []string) any {
	t.Helper()
	v := r.v()
	fill(t, reflect.ValueOf(v).Elem(), reflect.TypeOf(v).Elem().Name(), skip)
	return v
}

// encoder is appendResult, or a stand-in for it in the tests of
// compareEncoding.
type encoder func(b []byte, v any) ([]byte, bool)

// compareEncoding encodes v with enc and with encoding/json, as
// encodeValue writes it, and returns what differs: a member that enc
// drops, adds or writes differently, by JSON path, then any other
// difference in the bytes. It also reports enc declining v.
func compareEncoding(enc encoder, v any) []string {
	got, ok := enc(nil, v)
	if !ok {
		return []string{fmt.Sprintf("the fast encoder declined %T", v)}
	}
	var want bytes.Buffer
	if err := encodeValue(&want, v); err != nil {
		return []string{fmt.Sprintf("encoding/json: %v", err)}
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return []string{fmt.Sprintf("the fast encoder wrote invalid JSON: %v\n%s", err, got)}
	}
	json.Unmarshal(want.Bytes(), &w)
	problems := diffJSON("", g, w)
	if len(problems) == 0 && !bytes.Equal(got, want.Bytes()) {
		problems = append(problems, "the same JSON in other bytes")
	}
	if len(problems) > 0 {
		problems = append(problems, fmt.Sprintf("fast encoder: %s\nencoding/json: %s", got, want.Bytes()))
	}
	return problems
}

// diffJSON returns the differences between decoded JSON values got and
// want at path.
func diffJSON(path string, got, want any) []string {
	g, gok := got.(map[string]any)
	w, wok := want.(map[string]any)
	if gok && wok {
		var out []string
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s/%s: written by encoding/json, dropped by the fast encoder", path, k))
				continue
			}
			out = append(out, diffJSON(path+"/"+k, gv, wv)...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s/%s: written by the fast encoder, not by encoding/json", path, k))
			}
		}
		slices.Sort(out)
		return out
	}
	ga, gok := got.([]any)
	wa, wok := want.([]any)
	if gok && wok && len(ga) == len(wa) {
		var out []string
		for i := range wa {
			out = append(out, diffJSON(fmt.Sprintf("%s/%d", path, i), ga[i], wa[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: fast encoder %v, encoding/json %v", path, got, want)}
	}
	return nil
}

// TestAppendResultWritesEveryField encodes each type appendResult knows
// with every field set, and checks that it writes what encoding/json
// writes; and that each field listed as making it decline does.
func TestAppendResultWritesEveryField(t *testing.T) {
	for _, r := range fastResults {
		name := fmt.Sprintf("%T", r.v())
		t.Run(name, func(t *testing.T) {
			v := filled(t, r, r.declines)
			for _, p := range compareEncoding(appendResult, v) {
				t.Error(p)
			}
			// The response line around it, too.
			line, err := encodeResponse(json.RawMessage("7"), resultMember, v)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			encodeValue(&want, map[string]any{"jsonrpc": "2.0", "id": 7, "result": v})
			var g, w any
			json.Unmarshal(line, &g)
			json.Unmarshal(want.Bytes(), &w)
			for _, p := range diffJSON("", g, w) {
				t.Errorf("response line: %s", p)
			}
			for _, d := range r.declines {
				v := filled(t, r, slices.DeleteFunc(slices.Clone(r.declines), func(s string) bool { return s == d }))
				if _, ok := appendResult(nil, v); ok {
					t.Errorf("with %s set, appendResult encoded %s, which it should leave to encoding/json", d, name)
				}
			}
		})
	}
}

// grownResult is callToolWire with a field added that appendResult does
// not know, as a result type may grow one later.
type grownResult struct {
	callToolWire
	Annotations string `json:"annotations"`
}

// TestCompareEncodingCatchesADroppedField shows that the check above
// fails, and names the field, when the fast encoder drops one.
func TestCompareEncodingCatchesADroppedField(t *testing.T) {
	stale := func(b []byte, v any) ([]byte, bool) { return appendResult(b, &v.(*grownResult).callToolWire) }
	r := fastResult{func() any { return new(grownResult) }, []string{"CallToolResult.StructuredContent"}}
	problems := compareEncoding(stale, filled(t, r, r.declines))
	if len(problems) == 0 || problems[0] != "/annotations: written by encoding/json, dropped by the fast encoder" {
		t.Errorf("the dropped field went unnoticed; the check said:\n%s", strings.Join(problems, "\n"))
	}
}

// TestFastResultsListed checks that fastResults lists exactly the types
// of appendResult's type switch, so that a type added there is checked
// above.
func TestFastResultsListed(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "jsonrpc.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	ast.Inspect(f, func(n ast.Node) bool {
		if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name != "appendResult" {
			return false
		}
		if cc, ok := n.(*ast.CaseClause); ok {
			for _, e := range cc.List {
				var b strings.Builder
				printer.Fprint(&b, fset, e)
				cases = append(cases, "*mcp."+strings.TrimPrefix(b.String(), "*"))
			}
		}
		return true
	})
	var listed []string
	for _, r := range fastResults {
		listed = append(listed, fmt.Sprintf("%T", r.v()))
	}
	slices.Sort(cases)
	slices.Sort(listed)
	if len(cases) == 0 || !slices.Equal(cases, listed) {
		t.Errorf("appendResult's type switch encodes %v; fastResults lists %v: list each type it encodes", cases, listed)
	}
}
