package site

import (
	"html/template"
	"strings"
)

// StalePin is a transcript whose pinned replies its chapter no longer
// gives: the guide's server finds them while its sources are edited (see
// [Config].Stale), and the page marks each, saying how to refresh it.
type StalePin struct {
	// Command is the command that refreshes the pins: go generate ./...
	Command string
	// Detail says how what the chapter answers now differs from the pin,
	// and how to refresh it, as a failing pin's test says it.
	Detail string
}

// staleMark returns the mark of a transcript whose pin is stale: the
// page's sentence with the command in place of its %s, and the detail
// folded under it, which scrolls sideways rather than wrap, and so takes
// the keyboard's focus.
func (r *resolver) staleMark(pin StalePin) string {
	esc := template.HTMLEscapeString
	before, after, _ := strings.Cut(r.ui["stalePin"], "%s")
	return `<div class="stale-pin" role="note"><p>` + esc(before) + `<code>` + esc(pin.Command) + `</code>` + esc(after) + `</p>` +
		`<details><summary>` + esc(r.ui["stalePinDetail"]) + `</summary><pre tabindex="0">` + esc(pin.Detail) + `</pre></details></div>`
}
