// Package placeholder fills the <name> placeholders of a message
// template, such as the error table's "Unknown tool: <name>".
package placeholder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpbookshop/guide/mcp/internal/jsonwire"
)

// FillText returns tmpl with values filling its placeholders in order,
// in one allocation of the text's size. Placeholders beyond the values
// stay as they are.
func FillText(tmpl string, values ...string) string {
	n, rest := len(tmpl), tmpl
	for _, v := range values {
		i, j := find(rest)
		if i < 0 {
			break
		}
		n += len(v) - (j - i)
		rest = rest[j:]
	}
	var b strings.Builder
	b.Grow(n) // one allocation, of the text's size
	for _, v := range values {
		i, j := find(tmpl)
		if i < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		b.WriteString(v)
		tmpl = tmpl[j:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// Fill returns tmpl with each <name> replaced by value(name): as text, or
// in a JSON template as JSON, without escaping HTML characters, as the
// response is written.
func Fill(tmpl string, value func(name string) any, asJSON bool) string {
	var b strings.Builder
	for {
		i, j := find(tmpl)
		if i < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		v := value(tmpl[i+1 : j-1])
		if s, ok := v.(string); ok && asJSON {
			var tmp [64]byte
			b.Write(jsonwire.AppendString(tmp[:0], s))
		} else if asJSON {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(v)
			b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		} else if s, ok := v.(string); ok {
			b.WriteString(s)
		} else {
			fmt.Fprint(&b, v)
		}
		tmpl = tmpl[j:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// Names returns the names of tmpl's placeholders in the order they
// appear, a name as often as it appears: "<a> or <b>, not <a>" has a, b
// and a.
func Names(tmpl string) []string {
	var names []string
	for {
		i, j := find(tmpl)
		if i < 0 {
			return names
		}
		names = append(names, tmpl[i+1:j-1])
		tmpl = tmpl[j:]
	}
}

// find returns where the first <name> in s starts and ends, or -1
// and -1.
func find(s string) (start, end int) {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return -1, -1
	}
	j := strings.IndexByte(s[i:], '>')
	if j < 0 {
		return -1, -1
	}
	return i, i + j + 1
}
