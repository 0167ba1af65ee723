package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// versionLength is how many hex digits of the hash a [Version] keeps.
const versionLength = 12

// Version identifies one version of a section of a page's source: a short
// hash of its bytes. A translation records the version of each English
// section it follows.
func Version(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])[:versionLength]
}

// TopSection names the part of a page before its first level-2 heading:
// its title, its summary and the paragraphs that open it.
const TopSection = "(top)"

// section is one part of a page's source: a level-2 heading and everything
// up to the next one, or the top of the page.
type section struct {
	id      string // the heading's id, or TopSection
	version string // Version of the section's text
}

// headingID matches a level-2 heading line and captures its {#id}.
var headingID = regexp.MustCompile(`^## .*\{#([^}\s]+)\}\s*$`)

// splitSections cuts a page into its sections and versions each. The top
// section's version covers the title and summary as well. Lines inside
// fenced code blocks are never headings; a heading without an id, which
// fails the page's render, starts no section.
func splitSections(title, summary string, body []byte) []section {
	var (
		out   []section
		id    = TopSection
		text  bytes.Buffer
		fence string
	)
	fmt.Fprintf(&text, "title: %s\nsummary: %s\n", title, summary)
	flush := func() {
		out = append(out, section{id, Version(bytes.TrimSpace(text.Bytes()))})
		text.Reset()
	}
	for line := range strings.Lines(string(body)) {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.HasPrefix(line, "## "):
			if m := headingID.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
				flush()
				id = m[1]
			}
		}
		text.WriteString(line)
	}
	flush()
	return out
}

// parseRecord reads the source: block of a translation's front matter, one
// "section-id: version" line per section of the English page.
func parseRecord(block string) (map[string]string, error) {
	if strings.TrimSpace(block) == "" {
		return nil, fmt.Errorf("a translation must record the English version of each section it follows (source: then one \"  section-id: version\" line each; go run ./docs stamp writes it)")
	}
	if !strings.Contains(block, "\n") {
		return nil, fmt.Errorf("source: %q is not a record of sections (one \"  section-id: version\" line each; go run ./docs stamp writes it)", block)
	}
	rec := make(map[string]string)
	for line := range strings.Lines(block) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		id, v, ok := strings.Cut(line, ": ")
		if !ok || len(v) != versionLength {
			return nil, fmt.Errorf("source: line %q is not \"section-id: version\"", line)
		}
		if _, dup := rec[id]; dup {
			return nil, fmt.Errorf("source: section %s is recorded twice", id)
		}
		rec[id] = v
	}
	return rec, nil
}

// behindSections returns the ids of the English sections whose current
// version the translation's record does not name, in page order.
func behindSections(en []section, record map[string]string) []string {
	var ids []string
	for _, s := range en {
		if record[s.id] != s.version {
			ids = append(ids, s.id)
		}
	}
	return ids
}

// writeRecord returns the source: block recording en's sections, in page
// order.
func writeRecord(en []section, record map[string]string) string {
	var b strings.Builder
	b.WriteString("source:\n")
	for _, s := range en {
		if v, ok := record[s.id]; ok {
			fmt.Fprintf(&b, "  %s: %s\n", s.id, v)
		}
	}
	return b.String()
}
