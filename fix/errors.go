package fix

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: 1-based line and column (in bytes).
type Pos struct {
	Line, Col int
}

// IsValid reports whether the position is set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Error is one diagnostic at a position of a named file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error formats the diagnostic as file:line:col: message.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is a list of diagnostics, sorted by position. Its Error method
// prints one diagnostic per line.
type ErrorList []*Error

// maxErrors bounds the diagnostics kept for one file: past that the rest
// are noise caused by the first ones.
const maxErrors = 20

func (l *ErrorList) add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Error prints every diagnostic, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// err sorts the list, drops exact duplicates and returns nil when empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := l[:1]
	for _, e := range l[1:] {
		if last := out[len(out)-1]; last.Pos != e.Pos || last.Msg != e.Msg {
			out = append(out, e)
		}
	}
	if len(out) > maxErrors {
		out = out[:maxErrors]
	}
	return out
}
