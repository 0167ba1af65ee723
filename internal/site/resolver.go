package site

import (
	"fmt"
	"go/ast"
	"html/template"
	"io/fs"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpbookshop/guide/internal/callpath"
)

// resolver resolves directives against the repository. It caches what it
// parses, since pages in every language include the same files.
type resolver struct {
	root        fs.FS
	modules     map[string]module // the chapters' browser modules, by directory
	ui          map[string]string // the interface strings of the page's language
	files       map[string][]byte
	loaded      map[string]*Transcript // every case read, by Transcript.Key
	transcripts map[string]*Transcript // the cases a page shows, by Transcript.Key
	literals    map[string][]string    // string constants by package directory
	packages    map[string][]*ast.File // parsed packages by directory
	tables      map[string][]errorRow  // error tables by package directory
	highlighted map[string]template.HTML
	goNames     *goIndex                 // the module's Go declarations, for the code-span check
	pins        map[string]*callpath.Pin // measured paths by file, for :::callpath
	stale       map[string]StalePin      // Config.Stale

	// The page being resolved: its slug, its Markdown, and how its links
	// are rewritten (see fallback).
	slug    string
	src     []byte
	rewrite func(dest string) string

	// The docs tree, the language a directive renders in (English in a
	// translation's section shown in English), and the translated reasons
	// of :::sdks tables read from the docs tree, by file (see
	// translateReason).
	docs    fs.FS
	lang    string
	reasons map[string]map[string]translatedReason
}

func newResolver(root fs.FS, modules map[string]module) *resolver {
	return &resolver{
		root:        root,
		modules:     modules,
		files:       make(map[string][]byte),
		loaded:      make(map[string]*Transcript),
		transcripts: make(map[string]*Transcript),
		literals:    make(map[string][]string),
		packages:    make(map[string][]*ast.File),
		tables:      make(map[string][]errorRow),
		highlighted: make(map[string]template.HTML),
		pins:        make(map[string]*callpath.Pin),
	}
}

// readFile reads a repository file once.
func (r *resolver) readFile(name string) ([]byte, error) {
	if b, ok := r.files[name]; ok {
		return b, nil
	}
	b, err := fs.ReadFile(r.root, name)
	if err != nil {
		return nil, err
	}
	r.files[name] = b
	return b, nil
}

// resolve fills in n's html and text, or says why it cannot. The kind of
// directive, its syntax and its resolver come from the table directives.
func (r *resolver) resolve(n *directiveNode) error {
	args, err := splitArgs(n.line)
	if err != nil {
		return err
	}
	kind, args := args[0], args[1:]
	d := lookupDirective(kind)
	if d == nil {
		return fmt.Errorf("unknown directive %q: the directives are %s (see CONTRIBUTING.md, Directive reference)", kind, directiveNames())
	}
	if err := d.checkArgs(args); err != nil {
		return err
	}
	html, text, err := d.resolve(r, n, args)
	if err != nil {
		return fmt.Errorf("%s: %v", kind, err)
	}
	md, err := r.markdown(n, kind, args, text)
	if err != nil {
		return fmt.Errorf("%s: %v", kind, err)
	}
	n.html, n.text, n.md = string(html), text, md
	return nil
}

// splitArgs splits a directive into words; a word may be a Go-quoted string.
func splitArgs(line string) ([]string, error) {
	var args []string
	s := strings.TrimSpace(line)
	for s != "" {
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoted argument in %q", line)
			}
			v, _ := strconv.Unquote(q)
			args = append(args, v)
			s = s[len(q):]
		} else {
			end := strings.IndexFunc(s, unicode.IsSpace)
			if end < 0 {
				end = len(s)
			}
			args = append(args, s[:end])
			s = s[end:]
		}
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("empty directive")
	}
	return args, nil
}

// figure wraps a block with a caption naming where it comes from.
func figure(class, id string, caption template.HTML, body template.HTML) template.HTML {
	idAttr := ""
	if id != "" {
		idAttr = ` id="` + template.HTMLEscapeString(id) + `"`
	}
	return template.HTML(`<figure class="` + class + `"` + idAttr + `><figcaption>` + string(caption) +
		`</figcaption>` + string(body) + `</figure>` + "\n")
}

// sourceCaption is the caption of an included file: its path, in code.
func sourceCaption(file string, extra string) template.HTML {
	c := `<code class="path">` + template.HTMLEscapeString(file) + `</code>`
	if extra != "" {
		c += ` <span class="what">` + template.HTMLEscapeString(extra) + `</span>`
	}
	return template.HTML(c)
}
