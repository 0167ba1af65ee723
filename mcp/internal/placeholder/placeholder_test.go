package placeholder

import (
	"slices"
	"testing"
)

func TestFillText(t *testing.T) {
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
		if got := FillText(c.tmpl, c.values...); got != c.want {
			t.Errorf("FillText(%q, %q) = %q, want %q", c.tmpl, c.values, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { FillText("Error executing tool <name>: <err>", "t", "e") }); n != 1 {
		t.Errorf("FillText: %v allocations, want 1", n)
	}
}

func TestFill(t *testing.T) {
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
		if got := Fill(c.tmpl, value, c.asJSON); got != c.want {
			t.Errorf("Fill(%q, %v) = %q, want %q", c.tmpl, c.asJSON, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	for tmpl, want := range map[string][]string{
		"Error executing tool <name>: <err>": {"name", "err"},
		`{"uri":<uri>}`:                      {"uri"},
		"<a> or <b>, not <a>":                {"a", "b", "a"},
		"open < only":                        nil,
		"none":                               nil,
	} {
		if got := Names(tmpl); !slices.Equal(got, want) {
			t.Errorf("Names(%q) = %q, want %q", tmpl, got, want)
		}
	}
}
