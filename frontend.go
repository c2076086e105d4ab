package boolprog

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"boolprog/internal/labels"
	"boolprog/internal/threads"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// Source is a program that the front end read, parsed and checked, before
// it is lowered: what Check starts from, and what the command's other
// subcommands (fmt, graph, seq, validate, mucke --emit) work on.
type Source struct {
	Name string       // the file's name in diagnostics
	Text []byte       // the program's text
	File *syntax.File // its syntax tree
	Info *sema.Info   // its declarations and types
	// Warnings are sema's warnings and the expressions the other
	// precedence dialect would read differently, sorted by position;
	// DialectNote says which dialect was detected, if one was.
	Warnings    []Diagnostic
	DialectNote string

	commandLine bool // Options.CommandLine
	interleave  bool // Options.InterleaveAtomicCalls
}

// Load reads a program with read (as CheckFunc does) and parses and checks
// it as Check does, with Options.Filename, Dialect and CommandLine. An
// unreadable program, a syntax or a semantic error is an *InputError.
func Load(ctx context.Context, read func(context.Context) ([]byte, error), opts Options) (*Source, error) {
	src, errs := load(ctx, opts.filename(), read, &opts)
	if len(errs) > 0 {
		return nil, &InputError{Diagnostics: diagnostics(errs)}
	}
	return src, nil
}

func load(ctx context.Context, name string, read func(context.Context) ([]byte, error), opts *Options) (*Source, syntax.ErrorList) {
	text, err := read(ctx)
	if err != nil {
		return nil, syntax.ErrorList{{Filename: name, Msg: err.Error()}}
	}
	f, err := syntax.ParseFile(name, text, opts.Dialect)
	if err != nil {
		return nil, asList(name, err)
	}
	info, errs, warns := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	warns = append(warns, f.Ambiguities()...)
	warns.Sort()
	s := &Source{Name: name, Text: text, File: f, Info: info, Warnings: diagnostics(warns), commandLine: opts.CommandLine, interleave: opts.InterleaveAtomicCalls}
	if opts.Dialect == DialectAuto && f.Dialect == syntax.Getafix {
		_, why := syntax.DetectDialect(f)
		s.DialectNote = fmt.Sprintf("reading with the getafix operator precedence: %s (%s reads it otherwise)", why, opts.dialectHint())
	}
	return s, nil
}

// Lower lowers the program to control-flow automata as Check does: with
// the target label (default SLIC_ERROR; another must occur, else the
// error lists the program's labels) and the procedures run as threads
// (Options.Threads; none: the program's own). An error is an *InputError.
func (s *Source) Lower(target string, threadList []string) (*ir.Program, error) {
	p, errs := s.lower(target, threadList)
	if len(errs) > 0 {
		return nil, &InputError{Diagnostics: diagnostics(errs)}
	}
	return p, nil
}

func (s *Source) lower(target string, threadList []string) (*ir.Program, syntax.ErrorList) {
	p, err := ir.Lower(s.File, s.Info, ir.Options{Target: target})
	if err != nil {
		return nil, asList(s.Name, err)
	}
	if err := labels.CheckTarget(p, target); err != nil {
		return nil, syntax.ErrorList{{Filename: s.Name, Msg: err.Error()}}
	}
	return threads.Apply(s.Name, p, threadList, !s.interleave)
}

// asList returns err as a list of diagnostics; the message of an error
// that is not one names the file only once.
func asList(name string, err error) syntax.ErrorList {
	if list, ok := syntax.AsErrorList(err); ok {
		return list
	}
	return syntax.ErrorList{{Filename: name, Msg: strings.TrimPrefix(err.Error(), name+": ")}}
}

// MaxWarningsShown is how many warnings WriteWarnings writes before it
// says how many more there are: a generated file with a systematic
// problem would otherwise bury the verdict under 100,000 lines.
const MaxWarningsShown = 20

// WriteWarnings writes the dialect note and the warnings as the command
// prints them on standard error: "file: note: reading with ...", then
// "file:line:col: warning: message", at most MaxWarningsShown of them.
func (s *Source) WriteWarnings(w io.Writer) error {
	return writeWarnings(w, s.Name, s.DialectNote, s.Warnings, s.commandLine)
}

func writeWarnings(w io.Writer, name, note string, warns []Diagnostic, commandLine bool) error {
	bw := bufio.NewWriter(w)
	if note != "" {
		fmt.Fprintf(bw, "%s: note: %s\n", name, note)
	}
	for i, d := range warns {
		if i == MaxWarningsShown {
			hint := ""
			if commandLine {
				hint = " (-q silences warnings)"
			}
			fmt.Fprintf(bw, "%s: ... and %d more warnings%s\n", d.File, len(warns)-i, hint)
			break
		}
		d.Message = "warning: " + d.Message
		fmt.Fprintln(bw, d.String())
	}
	return bw.Flush()
}
