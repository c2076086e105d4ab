package main

import (
	"context"
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
	dialect    dialectFlag
	maxInput   bytesize.Size
	interleave bool
}

func (lf *loadFlags) register(fs *flag.FlagSet) {
	lf.maxInput = defaultMaxInput
	lf.dialect.d = syntax.Auto
	fs.Var(&lf.dialect, "dialect", "operator precedence: auto (getafix for a file that follows the Getafix convention, else cprover), cprover or getafix")
	fs.Var(&lf.maxInput, "max-input", "largest input file read, e.g. 64MiB, 1GiB, 500000 (bytes)")
	fs.BoolVar(&lf.interleave, "interleave-atomic-calls", false, "in a concurrent program, let a context switch come inside a procedure named __VERIFIER_atomic_* (by default its calls run atomically, as SV-COMP's C runs those functions)")
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
	return boolprog.Options{Filename: boolprog.DisplayName(path), Dialect: lf.dialect.d, MaxInput: int64(lf.maxInput), InterleaveAtomicCalls: lf.interleave, CommandLine: true}
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
		boolprog.WriteErrors(s.stderr, err)
		return nil, false
	}
	return src, true
}

// fileReader returns the reader of a file that is not a program, as
// readFile reads it, for a pipeline that reads within its time limit.
func (lf *loadFlags) fileReader(path string, stdin io.Reader) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) {
		return boolprog.ReadFile(ctx, path, stdin, lf.options(path))
	}
}

// load reads, parses and checks a file (boolprog.Load). On an input
// error (unreadable file, syntax or semantic error) it prints the
// diagnostics and returns ok false (the command exits with exitInput).
func load(ctx context.Context, path string, lf *loadFlags, s *streams) (src *boolprog.Source, ok bool) {
	src, err := boolprog.Load(ctx, lf.reader(path, s.stdin), lf.options(path))
	if err != nil {
		boolprog.WriteErrors(s.stderr, err)
		return nil, false
	}
	return src, true
}

// loadProgram reads, checks and lowers one file for the commands that work
// on one program (graph, seq, mucke --emit): the pipeline's front end with
// the target, whose label must exist, and the threads (nil: the program's). On an input error it prints the
// diagnostics and returns ok false (the command exits with exitInput).
func loadProgram(ctx context.Context, path string, lf *loadFlags, target string, threads []string, s *streams) (src *boolprog.Source, p *ir.Program, ok bool) {
	if src, ok = load(ctx, path, lf, s); !ok {
		return nil, nil, false
	}
	p, err := src.Lower(target, threads)
	if err != nil {
		boolprog.WriteErrors(s.stderr, err)
		return nil, nil, false
	}
	return src, p, true
}
