package syntax

import (
	"fmt"
	"sort"
	"strings"
)

// An Error is a diagnostic at a position of a named file. It prints as
// "file:line:col: message", like the Go compiler's.
type Error struct {
	Filename string
	Pos      Pos
	Msg      string
}

// Error formats the diagnostic.
func (e *Error) Error() string {
	switch {
	case e.Filename != "" && e.Pos.IsValid():
		return fmt.Sprintf("%s:%d:%d: %s", e.Filename, e.Pos.Line, e.Pos.Col, e.Msg)
	case e.Filename != "":
		return e.Filename + ": " + e.Msg
	case e.Pos.IsValid():
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return e.Msg
}

// ErrorList is a list of diagnostics. It implements error; the zero value is
// an empty list ready to use.
type ErrorList []*Error

// Add appends a diagnostic.
func (l *ErrorList) Add(filename string, pos Pos, msg string) {
	*l = append(*l, &Error{Filename: filename, Pos: pos, Msg: msg})
}

// Len, Less and Swap make an ErrorList sortable by file, line, column and
// message.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i], l[j]
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line < b.Pos.Line
	}
	if a.Pos.Col != b.Pos.Col {
		return a.Pos.Col < b.Pos.Col
	}
	return a.Msg < b.Msg
}

// Sort sorts the list by position (stable for equal positions).
func (l ErrorList) Sort() { sort.Stable(l) }

// Error joins all diagnostics, one per line.
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

// Err returns the list as an error, or nil if it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
