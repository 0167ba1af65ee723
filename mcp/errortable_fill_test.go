package mcp

import (
	"slices"
	"testing"
)

// placeholderNames returns the names of tmpl's placeholders in the order
// they appear, a name as often as it appears: "<a> or <b>, not <a>" has
// a, b and a.
func placeholderNames(tmpl string) []string {
	var names []string
	for {
		i, j := findPlaceholder(tmpl)
		if i < 0 {
			return names
		}
		names = append(names, tmpl[i+1:j-1])
		tmpl = tmpl[j:]
	}
}

func TestErrorTablefillText(t *testing.T) {
	for _, c := range []struct {
		tmpl   string
		values []string
		want   string
	}{
		{"Error executing tool <name>: <err>", []string{"t", "<x>"}, "Error executing tool t: <x>"},
		{"Error executing tool <name>", []string{"t"}, "Error executing tool t"},
		{"<a> and <b>", []string{"1"}, "1 and <b>"},
		{"no placeholder", []string{"x"}, "no placeholder"},
		{"open < only", []string{"x"}, "open < only"},
	} {
		if got := fillText(c.tmpl, c.values...); got != c.want {
			t.Errorf("fillText(%q, %q) = %q, want %q", c.tmpl, c.values, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { fillText("Error executing tool <name>: <err>", "t", "e") }); n != 1 {
		t.Errorf("FillText: %v allocations, want 1", n)
	}
}

func TestFillTemplate(t *testing.T) {
	value := func(name string) any {
		switch name {
		case "uri":
			return "a&b<c>"
		case "n":
			return 42
		}
		return []string{"x", "y"}
	}
	for _, c := range []struct {
		tmpl   string
		asJSON bool
		want   string
	}{
		{"Unknown resource: <uri>", false, "Unknown resource: a&b<c>"},
		{"<n> bytes", false, "42 bytes"},
		{`{"uri":<uri>,"n":<n>,"list":<list>}`, true, `{"uri":"a&b<c>","n":42,"list":["x","y"]}`},
	} {
		if got := fillTemplate(c.tmpl, value, c.asJSON); got != c.want {
			t.Errorf("fillTemplate(%q, %v) = %q, want %q", c.tmpl, c.asJSON, got, c.want)
		}
	}
}

func TestPlaceholderNames(t *testing.T) {
	for tmpl, want := range map[string][]string{
		"Error executing tool <name>: <err>": {"name", "err"},
		`{"uri":<uri>}`:                      {"uri"},
		"<a> or <b>, not <a>":                {"a", "b", "a"},
		"open < only":                        nil,
		"none":                               nil,
	} {
		if got := placeholderNames(tmpl); !slices.Equal(got, want) {
			t.Errorf("placeholderNames(%q) = %q, want %q", tmpl, got, want)
		}
	}
}
