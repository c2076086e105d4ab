package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"boolprog"
	"boolprog/internal/bytesize"
	"boolprog/ir"
	"boolprog/syntax"
)

// defaultMaxInput is the default --max-input: generous (the largest public
// benchmark file is a few megabytes), but a bound, so that /dev/zero or a
// mistaken multi-gigabyte file is refused instead of read until memory
// runs out.
const defaultMaxInput = boolprog.DefaultMaxInput

// loadFlags are the flags of every command that reads programs.
type loadFlags struct {
	dialect  dialectFlag
	maxInput bytesize.Size
}

func (lf *loadFlags) register(fs *flag.FlagSet) {
	lf.maxInput = defaultMaxInput
	lf.dialect.d = syntax.Auto
	fs.Var(&lf.dialect, "dialect", "operator precedence: auto (getafix for a file that follows the Getafix convention, else cprover), cprover or getafix")
	fs.Var(&lf.maxInput, "max-input", "largest input file read, e.g. 64MiB, 1GiB, 500000 (bytes)")
}

// dialectFlag is a flag.Value for --dialect.
type dialectFlag struct{ d syntax.Dialect }

func (f *dialectFlag) String() string { return f.d.String() }
func (f *dialectFlag) Set(s string) error {
	d, ok := syntax.ParseDialect(s)
	if !ok {
		return fmt.Errorf("unknown dialect %q (want auto, cprover or getafix)", s)
	}
	f.d = d
	return nil
}

// options are the pipeline's options for the file path: its name in
// diagnostics, the dialect, and messages worded with the command's flags.
func (lf *loadFlags) options(path string) boolprog.Options {
	return boolprog.Options{Filename: boolprog.DisplayName(path), Dialect: lf.dialect.d, MaxInput: int64(lf.maxInput), CommandLine: true}
}

// reader returns the pipeline's reader of the file path ("-": standard
// input), boolprog.FileReader with --max-input.
func (lf *loadFlags) reader(path string, stdin io.Reader) func(context.Context) ([]byte, error) {
	return boolprog.FileReader(path, stdin, lf.options(path))
}

// readFile reads a file that is not a program (a witness, a model, a
// pushdown system) as a program is read; on an error it prints the
// diagnostic and returns ok false (the command exits with exitInput).
func (lf *loadFlags) readFile(ctx context.Context, path string, s *streams) (src []byte, ok bool) {
	src, err := boolprog.ReadFile(ctx, path, s.stdin, lf.options(path))
	if err != nil {
		printDiagnostics(s.stderr, inputErrors(err))
		return nil, false
	}
	return src, true
}

// load reads, parses and checks a file (boolprog.Load). Any error
// (unreadable file, syntax or semantic error) comes back as a non-empty
// list, each with the file's name; the caller prints them and exits with
// exitInput.
func load(ctx context.Context, path string, lf *loadFlags, stdin io.Reader) (*boolprog.Source, syntax.ErrorList) {
	src, err := boolprog.Load(ctx, lf.reader(path, stdin), lf.options(path))
	if err != nil {
		return nil, inputErrors(err)
	}
	return src, nil
}

// inputErrors returns the diagnostics of an error of the pipeline (an
// *InputError; anything else as one diagnostic without a file).
func inputErrors(err error) syntax.ErrorList {
	var in *boolprog.InputError
	if !errors.As(err, &in) {
		return syntax.ErrorList{{Msg: err.Error()}}
	}
	return errorList(in.Diagnostics)
}

// errorList converts the pipeline's diagnostics for printDiagnostics.
func errorList(ds []boolprog.Diagnostic) syntax.ErrorList {
	list := make(syntax.ErrorList, len(ds))
	for i, d := range ds {
		list[i] = &syntax.Error{Filename: d.File, Pos: syntax.Pos{Line: d.Line, Col: d.Col}, Msg: d.Message}
	}
	return list
}

// Text output shows at most this many errors and warnings per file, and
// then says how many more there are: a generated file with a systematic
// problem would otherwise bury the verdict under 100,000 lines.
const maxErrorsShown = 50

// printDiagnostics prints errors as "file:line:col: message".
func printDiagnostics(w io.Writer, list syntax.ErrorList) {
	bw := bufio.NewWriter(w)
	for i, e := range list {
		if i == maxErrorsShown {
			fmt.Fprintf(bw, "%s: ... and %d more errors\n", e.Filename, len(list)-i)
			break
		}
		fmt.Fprintln(bw, e.Error())
	}
	bw.Flush()
}

// loadProgram reads, checks and lowers one file for the commands that work
// on one program (graph, seq, mucke --emit): the pipeline's front end with
// the target, whose label must exist. On an input error it prints the
// diagnostics and returns ok false (the command exits with exitInput).
func loadProgram(ctx context.Context, path string, lf *loadFlags, target string, s *streams) (src *boolprog.Source, p *ir.Program, ok bool) {
	src, errs := load(ctx, path, lf, s.stdin)
	if len(errs) == 0 {
		var err error
		if p, err = src.Lower(target, nil); err != nil {
			errs = inputErrors(err)
		}
	}
	if len(errs) > 0 {
		printDiagnostics(s.stderr, errs)
		return nil, nil, false
	}
	return src, p, true
}
