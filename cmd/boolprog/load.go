package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// dialectFlag is a flag.Value for --dialect.
type dialectFlag struct{ d syntax.Dialect }

func (f *dialectFlag) String() string { return f.d.String() }
func (f *dialectFlag) Set(s string) error {
	d, ok := syntax.ParseDialect(s)
	if !ok {
		return fmt.Errorf("unknown dialect %q (want cprover or getafix)", s)
	}
	f.d = d
	return nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (`boolprog check main.bp -l ERROR` is how the
// regression suites call checkers), and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		// Parse stopped at a non-flag argument: keep it, go on after it.
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// loaded is a source file that parsed and checked.
type loaded struct {
	file  *syntax.File
	info  *sema.Info
	warns syntax.ErrorList
}

// load reads, parses and checks a file, printing diagnostics to stderr.
// It returns ok=false (and the caller exits with exitInput) on any error.
func load(path string, d syntax.Dialect, stderr io.Writer) (*loaded, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "boolprog: %v\n", err)
		return nil, false
	}
	f, err := syntax.ParseFile(path, src, d)
	if err != nil {
		printDiagnostics(stderr, err)
		return nil, false
	}
	info, errs, warns := sema.Check(f)
	if len(errs) > 0 {
		printDiagnostics(stderr, errs)
		return nil, false
	}
	return &loaded{file: f, info: info, warns: warns}, true
}

func printDiagnostics(w io.Writer, err error) {
	if list, ok := err.(syntax.ErrorList); ok {
		for _, e := range list {
			fmt.Fprintln(w, e.Error())
		}
		return
	}
	fmt.Fprintln(w, err)
}

// printWarnings prints warnings as "file:line:col: warning: message".
func printWarnings(w io.Writer, warns syntax.ErrorList) {
	for _, e := range warns {
		fmt.Fprintln(w, (&syntax.Error{Filename: e.Filename, Pos: e.Pos, Msg: "warning: " + e.Msg}).Error())
	}
}

// lower turns a checked file into control-flow automata.
func (l *loaded) lower(target string, stderr io.Writer) (*ir.Program, bool) {
	p, err := ir.Lower(l.file, l.info, ir.Options{Target: target})
	if err != nil {
		printDiagnostics(stderr, err)
		return nil, false
	}
	return p, true
}
