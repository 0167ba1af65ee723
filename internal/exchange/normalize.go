package exchange

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The placeholders NormalizeLog puts in place of what changes from run to
// run.
const (
	timePlaceholder      = "<time>"
	goroutinePlaceholder = "<n>"
	dirPlaceholder       = "<dir>"
	linePlaceholder      = "<line>"
	elidedArgs           = "(...)"
)

var (
	// goroutineNumber matches a goroutine's number where Go prints one: in
	// a stack's header ("goroutine 7 [running]:") and in "created by f in
	// goroutine 1".
	goroutineNumber = regexp.MustCompile(`\bgoroutine \d+\b`)
	// sourcePosition matches an absolute path to a Go or assembly source
	// file and its line number, with the program counter offset a stack
	// frame adds: its directory and line are machine- and edit-specific.
	sourcePosition = regexp.MustCompile(`(^|[\s"'=(])(?:[A-Za-z]:)?[/\\](?:[^\s"'=:]*[/\\])?([^/\\\s"'=:]+\.(?:go|s)):\d+(?: \+0x[0-9a-f]+)?`)
	// stackHeader matches the first line of a goroutine's stack, as
	// runtime/debug.Stack and a crash print it.
	stackHeader = regexp.MustCompile(`goroutine \d+ \[[^\]\n]*\]:\n`)
)

// NormalizeLog returns the lines a server logged, as slog's text handler
// writes them, with what changes from run to run replaced by placeholders,
// so that a pin can hold them byte for byte:
//
//   - the time attribute that starts a line: time=<time>;
//   - goroutine numbers: goroutine <n>;
//   - the directory and line number of a Go source file:
//     <dir>/main.go:<line>, without a stack frame's +0x offset;
//   - a stack (a value holding "goroutine N [running]:" and the frames
//     below it): its header and only the first frame's function, with its
//     arguments elided, as in main.getAuthor(...). The first frame is
//     the function that panicked, the frame below panic(...), or else the
//     first frame outside the runtime (runtime/debug.Stack records
//     itself).
//
// Everything else, the level, the message and every attribute's key and
// value, is kept verbatim, quoted as slog quotes it. A line that is not
// slog's (a crash's own output, say) gets the same placeholders, except for
// the time, line by line; a stack such a crash prints over many lines, from
// its "goroutine N [running]:" line to its last frame, is cut to its first
// frame as a stack in a value is, since a crash's frames show argument
// values that change from run to run.
func NormalizeLog(log string) string {
	var b strings.Builder
	lines := slices.Collect(strings.Lines(log))
	for i := 0; i < len(lines); i++ {
		text, nl := strings.CutSuffix(lines[i], "\n")
		if attrs, ok := parseTextLine(text); ok {
			b.WriteString(normalizeAttrs(attrs))
		} else if stackHeader.MatchString(lines[i]) {
			stack := lines[i]
			for i+1 < len(lines) && isFrameLine(lines, i+1) {
				i++
				stack += lines[i]
			}
			text, nl = strings.CutSuffix(stack, "\n")
			b.WriteString(normalizeText(text))
		} else {
			b.WriteString(normalizeText(text))
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// isFrameLine reports whether lines[i] belongs to a stack a crash prints:
// a frame's source position (indented by a tab), a frame's function (the
// line before a position) or its "created by" line.
func isFrameLine(lines []string, i int) bool {
	return strings.HasPrefix(lines[i], "\t") || strings.HasPrefix(lines[i], "created by ") ||
		i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t")
}

// normalizeText puts placeholders for goroutine numbers and source
// positions in s, and cuts any stack in it to its first frame.
func normalizeText(s string) string {
	s = firstFrameOnly(s)
	s = goroutineNumber.ReplaceAllString(s, "goroutine "+goroutinePlaceholder)
	return sourcePosition.ReplaceAllString(s, "${1}"+dirPlaceholder+"/${2}:"+linePlaceholder)
}

// firstFrameOnly cuts a stack in s to its header and the function of its
// first frame (see [NormalizeLog]), keeping what comes before the stack.
func firstFrameOnly(s string) string {
	loc := stackHeader.FindStringIndex(s)
	if loc == nil {
		return s
	}
	var funcs []string
	for line := range strings.Lines(s[loc[1]:]) {
		line = strings.TrimRight(line, "\n")
		if line == "" || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "created by ") {
			continue
		}
		funcs = append(funcs, line)
	}
	start := 0
	for i, f := range funcs {
		if strings.HasPrefix(f, "panic(") {
			start = i + 1
			break
		}
	}
	out := s[:loc[1]]
	for _, f := range funcs[start:] {
		if name := funcName(f); !inRuntime(name) {
			return out + name + elidedArgs
		}
	}
	return strings.TrimSuffix(out, "\n")
}

// funcName returns the function a stack frame's line calls, without its
// arguments: the frame "main.f(0x1, {0x2?})" calls main.f. The arguments
// are the last parenthesized group; a method's receiver, as in
// mcp.(*Server).serve(...), comes before it.
func funcName(frame string) string {
	if i := strings.LastIndexByte(frame, '('); i > 0 {
		return frame[:i]
	}
	return frame
}

// inRuntime reports whether the function named is the runtime's own, which
// a stack shows above the function that panicked or asked for the stack.
func inRuntime(name string) bool {
	return strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "runtime/debug.")
}

// attr is one key=value of a slog text line, as written: raw is the value's
// text, quoted or not, and value its meaning.
type attr struct {
	key, raw, value string
}

// parseTextLine splits a line of slog's text handler into its attributes.
// It reports false for a line that is not one: a slog line starts with
// time= or level= and is key=value pairs separated by single spaces, each
// value bare or quoted as strconv.Quote quotes.
func parseTextLine(line string) ([]attr, bool) {
	if !strings.HasPrefix(line, "time=") && !strings.HasPrefix(line, "level=") {
		return nil, false
	}
	var attrs []attr
	for rest := line; rest != ""; {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \"") {
			return nil, false
		}
		a := attr{key: key}
		if strings.HasPrefix(after, `"`) {
			q, err := strconv.QuotedPrefix(after)
			if err != nil {
				return nil, false
			}
			a.raw, rest = q, after[len(q):]
			a.value, _ = strconv.Unquote(q)
		} else {
			end := strings.IndexByte(after, ' ')
			if end < 0 {
				end = len(after)
			}
			a.raw, rest = after[:end], after[end:]
			a.value = a.raw
		}
		attrs = append(attrs, a)
		if rest != "" {
			if rest[0] != ' ' {
				return nil, false
			}
			rest = rest[1:]
		}
	}
	return attrs, true
}

// normalizeAttrs writes attrs back as one slog text line with the
// placeholders of [NormalizeLog], keeping verbatim every value that has
// none.
func normalizeAttrs(attrs []attr) string {
	var b strings.Builder
	for i, a := range attrs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.key)
		b.WriteByte('=')
		switch v := normalizeText(a.value); {
		case i == 0 && a.key == "time":
			b.WriteString(timePlaceholder)
		case v == a.value:
			b.WriteString(a.raw)
		default:
			b.WriteString(quoteLikeSlog(v))
		}
	}
	return b.String()
}

// quoteLikeSlog quotes s as slog's text handler quotes a value: only when
// it is empty or holds a space, a quote, an equals sign or a character that
// does not print.
func quoteLikeSlog(s string) string {
	if s == "" || strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '"' || r == '=' || !unicode.IsPrint(r)
	}) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
