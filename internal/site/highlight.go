package site

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// The chroma styles of the two colour schemes.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// formatOptions are shared by fenced code blocks and directives, so that
// both use the same CSS classes.
var formatOptions = []chromahtml.Option{chromahtml.WithClasses(true), chromahtml.TabWidth(4)}

var formatter = chromahtml.New(formatOptions...)

// highlight returns code highlighted as lang, inside the wrapper that gets a
// copy button.
func highlight(lang, code string) template.HTML {
	lexer := lexers.Get(lang)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	var b strings.Builder
	b.WriteString(`<div class="code">`)
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err == nil {
		err = formatter.Format(&b, styles.Get(lightStyle), it)
	}
	if err != nil { // chroma fails only on a broken lexer; show the code plain
		return plain(code)
	}
	b.WriteString(`</div>`)
	if lang == "json" {
		return template.HTML(hangIndent(b.String()))
	}
	return template.HTML(b.String())
}

// indentedLine matches the start of a highlighted line and its indentation.
var indentedLine = regexp.MustCompile(`<span class="line"><span class="cl">( +)`)

// hangIndent gives each indented line of highlighted code its indentation
// as the --indent property, so that the style sheet can make a wrapped line
// continue under its own start rather than at column 0.
func hangIndent(html string) string {
	return indentedLine.ReplaceAllStringFunc(html, func(m string) string {
		n := len(m) - len(`<span class="line"><span class="cl">`)
		return fmt.Sprintf(`<span class="line" style="--indent:%d"><span class="cl">%s`, n, strings.Repeat(" ", n))
	})
}

// plain returns text unhighlighted, in the same wrapper and classes as
// highlighted code.
func plain(text string) template.HTML {
	return template.HTML(`<div class="code"><pre class="chroma"><code>` + template.HTMLEscapeString(text) + `</code></pre></div>`)
}

// highlightCSS returns the style sheet of the code colours: the light style,
// and the dark one for readers whose system prefers it.
func highlightCSS() ([]byte, error) {
	var light, dark bytes.Buffer
	if err := formatter.WriteCSS(&light, styles.Get(lightStyle)); err != nil {
		return nil, err
	}
	if err := formatter.WriteCSS(&dark, styles.Get(darkStyle)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("/* Code colours, generated from chroma's " + lightStyle + " and " + darkStyle + " styles:\n" +
		"   each scheme alone, so that no colour of one leaks into the other. */\n")
	b.WriteString("@media not all and (prefers-color-scheme: dark) {\n")
	b.Write(light.Bytes())
	b.WriteString("}\n@media (prefers-color-scheme: dark) {\n")
	b.Write(dark.Bytes())
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// highlight is highlight remembered for one build: translations include the
// same code as the English pages, and chroma is the costliest step of a
// build.
func (r *resolver) highlight(lang, code string) template.HTML {
	key := lang + "\x00" + code
	h, ok := r.highlighted[key]
	if !ok {
		h = highlight(lang, code)
		r.highlighted[key] = h
	}
	return h
}
