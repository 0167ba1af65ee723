// Package urimatch matches URIs against RFC 6570 URI templates, as the
// template library does, but faster for the templates servers usually
// register.
package urimatch

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// Matcher matches URIs against a resource template. A template of
// literals and simple {name} expressions (RFC 6570 level 1) that starts
// with a literal (a URI's scheme), each expression followed by nothing or
// by a literal that starts with a character no value holds, is matched by
// a scan compiled at registration, faster than the template library's
// Match, a general machine for every level, and allocating only the
// variables' map (BenchmarkTemplateMatch). Any other template is matched
// by the library.
// Both give the same variables for every URI (FuzzTemplateMatch).
type Matcher struct {
	tmpl  *uritemplate.Template // for a template the scan does not cover
	lits  []string              // literals: before the first name, then after each
	names []string              // the expressions' variable names
}

// New compiles the matcher of a parsed template whose text is src.
func New(tmpl *uritemplate.Template, src string) *Matcher {
	if src == "" || src[0] == '{' {
		// Such a template matches the empty URI, and the library then
		// matches any one character too: leave that to it.
		return &Matcher{tmpl: tmpl}
	}
	m := new(Matcher)
	rest := src
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := open + strings.IndexByte(rest[open:], '}')
		lit, name := rest[:open], rest[open+1:end]
		if len(m.names) > 0 && !endsValue(lit) || !simpleName(name) || slices.Contains(m.names, name) {
			return &Matcher{tmpl: tmpl}
		}
		m.lits = append(m.lits, lit)
		m.names = append(m.names, name)
		rest = rest[end+1:]
	}
	if len(m.names) > 0 && rest != "" && !endsValue(rest) {
		return &Matcher{tmpl: tmpl}
	}
	m.lits = append(m.lits, rest)
	return m
}

// endsValue reports whether lit may follow an expression in a scanned
// template: its first character is one no value holds, which makes the
// match unique. (An empty literal between two expressions is not.)
func endsValue(lit string) bool {
	return lit != "" && !inValue(lit[0]) && lit[0] != '%'
}

// simpleName reports whether an expression is a bare variable name of
// letters, digits and "_", with dots between them: no operator, modifier or list. (A name
// used twice is left to the library, which gives it a list.)
func simpleName(name string) bool {
	return name != "" && name[0] != '.' && name[len(name)-1] != '.' && !strings.Contains(name, "..") &&
		strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") == ""
}

// inValue reports whether c may appear as itself in the expansion of a
// simple expression: an unreserved character, or the comma between the
// items of a list.
func inValue(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~' || c == ','
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Match returns the variables of uri, percent-decoded, or nil when it does
// not match. uri is in URI form: an IRI's non-ASCII characters
// percent-encoded (see [EscapeNonASCII]).
func (m *Matcher) Match(uri string) map[string]string {
	if m.tmpl != nil {
		return libraryMatch(m.tmpl, uri)
	}
	rest, ok := strings.CutPrefix(uri, m.lits[0])
	if !ok {
		return nil
	}
	var vals [4]string // the values, without allocating for a few names
	values := vals[:0]
	for i := range m.names {
		n := valueLen(rest)
		values = append(values, rest[:n])
		if rest, ok = strings.CutPrefix(rest[n:], m.lits[i+1]); !ok {
			return nil
		}
	}
	if rest != "" {
		return nil
	}
	params := make(map[string]string, len(m.names))
	for i, name := range m.names {
		params[name] = decodeValue(values[i])
	}
	return params
}

// valueLen returns the length of the value at the start of s: unreserved
// characters, commas and percent-encoded bytes.
func valueLen(s string) int {
	i := 0
	for i < len(s) {
		switch {
		case inValue(s[i]):
			i++
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 3
		default:
			return i
		}
	}
	return i
}

// decodeValue returns a variable's value as the template library gives it:
// percent-decoded, or "" for a list of values (a comma-separated
// expansion, which a level-1 string value never is).
func decodeValue(v string) string {
	if strings.IndexByte(v, ',') >= 0 {
		return ""
	}
	i := strings.IndexByte(v, '%')
	if i < 0 {
		return v
	}
	b := make([]byte, 0, len(v))
	b = append(b, v[:i]...)
	for ; i < len(v); i++ {
		if v[i] == '%' {
			b = append(b, unhex(v[i+1])<<4|unhex(v[i+2]))
			i += 2
		} else {
			b = append(b, v[i])
		}
	}
	return string(b)
}

// unhex returns the value of the hexadecimal digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// EscapeNonASCII percent-encodes the bytes of s outside ASCII, turning an IRI
// into the URI a template can match; the match decodes them again.
func EscapeNonASCII(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, c := range []byte(s[i:]) {
		if c < utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// libraryMatch matches uri with the template library itself, its
// variables as strings: the fallback for templates the compiled matcher
// does not cover, and the reference its tests compare with.
func libraryMatch(tmpl *uritemplate.Template, uri string) map[string]string {
	vals := tmpl.Match(uri)
	if vals == nil {
		return nil
	}
	params := make(map[string]string, len(vals))
	for name, v := range vals {
		params[name] = v.String()
	}
	return params
}
