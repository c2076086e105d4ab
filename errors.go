package boolprog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"boolprog/syntax"
)

// Diagnostic is a problem with the input, or a warning, at a position of a
// file. Line and Col are 0 when the problem concerns the whole file (an
// unknown target label, an input too large).
type Diagnostic struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// String returns "file:line:col: message", as the command prints it
// ("file: message" without a position).
func (d Diagnostic) String() string {
	return (&syntax.Error{Filename: d.File, Pos: syntax.Pos{Line: d.Line, Col: d.Col}, Msg: d.Message}).Error()
}

// InputError is the error of Check for a program that could not be
// checked: unreadable or too large input, syntax and semantic errors, a
// target label that occurs nowhere, a bad thread structure, or a malformed
// file named by an engine flag (a formula, a configuration). Diagnostics are
// sorted by position and never empty.
type InputError struct {
	Diagnostics []Diagnostic
}

// Error returns the diagnostics, one "file:line:col: message" per line.
func (e *InputError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// OptionError is the error of Check for Options that cannot be honoured:
// an unknown engine, a flag the engine does not have or a value it
// refuses, MaxNodes for an engine without BDDs, a negative limit. These are
// the command's usage errors (exit 1); Option names the field.
type OptionError struct {
	Option string // the Options field, e.g. "Engine", "EngineFlags", "MaxNodes"
	Msg    string
}

// Error returns "boolprog: Option: message".
func (e *OptionError) Error() string { return fmt.Sprintf("boolprog: %s: %s", e.Option, e.Msg) }

func optionErrorf(option, format string, args ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, args...)}
}

// diagnostics converts the front end's error list.
func diagnostics(list syntax.ErrorList) []Diagnostic {
	out := make([]Diagnostic, 0, len(list))
	for _, e := range list {
		out = append(out, Diagnostic{File: e.Filename, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
	}
	return out
}

// MaxErrorsShown is how many errors WriteErrors writes before it says
// how many more there are: a generated file with a systematic problem
// would otherwise bury everything else under 100,000 lines.
const MaxErrorsShown = 50

// WriteErrors writes err as the command prints input errors: the
// diagnostics of an *InputError or a syntax.ErrorList one
// "file:line:col: message" per line, at most MaxErrorsShown of them and
// then how many more there are; another error as its text.
func WriteErrors(w io.Writer, err error) error {
	var ds []Diagnostic
	var in *InputError
	if errors.As(err, &in) {
		ds = in.Diagnostics
	} else if list, ok := syntax.AsErrorList(err); ok {
		ds = diagnostics(list)
	} else {
		_, werr := fmt.Fprintln(w, err)
		return werr
	}
	bw := bufio.NewWriter(w)
	for i, d := range ds {
		if i == MaxErrorsShown {
			fmt.Fprintf(bw, "%s: ... and %d more errors\n", d.File, len(ds)-i)
			break
		}
		fmt.Fprintln(bw, d.String())
	}
	return bw.Flush()
}
