package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"boolprog"
	"boolprog/ir"
	"boolprog/syntax"
)

// stdinName is the file name of standard input (a FILE argument "-") in
// diagnostics and reports.
const stdinName = "<stdin>"

// defaultMaxInput is the default --max-input: generous (the largest public
// benchmark file is a few megabytes), but a bound, so that /dev/zero or a
// mistaken multi-gigabyte file is refused instead of read until memory
// runs out.
const defaultMaxInput = 64 << 20

// loadFlags are the flags of every command that reads programs.
type loadFlags struct {
	dialect  dialectFlag
	maxInput sizeFlag
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

// sizeFlag is a flag.Value for a size in bytes with an optional unit: KB,
// MB, GB (powers of 1000) or KiB, MiB, GiB (powers of 1024).
type sizeFlag int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

func (f *sizeFlag) String() string {
	n := int64(*f)
	for _, u := range sizeUnits[:3] {
		if n >= u.mult && n%u.mult == 0 && (u.mult == 1<<30 || n%(u.mult<<10) != 0) {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (f *sizeFlag) Set(s string) error {
	num, mult := s, int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return fmt.Errorf("want a positive size such as 64MiB or 1000000, not %q", s)
	}
	*f = sizeFlag(n * mult)
	return nil
}

// displayName is how diagnostics name the file given as path.
func displayName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// readInput reads the file path ("-": stdin) up to limit bytes. A larger
// input is an error that names the limit and the flag that changes it; the
// reader never holds more than limit+1 bytes.
// Reading stops when ctx ends (an interrupted `check -` waiting for its
// input), with the context's cause as the error.
func readInput(ctx context.Context, path string, limit int64, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	regular := false
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		info, err := f.Stat()
		if err == nil && info.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		if err == nil && info.Mode().IsRegular() {
			if info.Size() > limit {
				return nil, tooLarge(path, limit)
			}
			regular = true
		}
		r = f
	}
	r = io.LimitReader(r, limit+1)
	var src []byte
	var err error
	if regular {
		// A regular file cannot keep the reader waiting.
		src, err = io.ReadAll(r)
	} else {
		src, err = readAll(ctx, r)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v", displayName(path), unwrapPathError(err))
	}
	if int64(len(src)) > limit {
		return nil, tooLarge(path, limit)
	}
	return src, nil
}

// readAll reads r (standard input, a pipe, a device) to its end, or until
// ctx ends. A read blocked on a terminal or pipe cannot be cancelled: it is
// left behind in its goroutine, and the command ends without waiting for
// it.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	if ctx.Done() == nil {
		return io.ReadAll(r)
	}
	type read struct {
		b   []byte
		err error
	}
	ch := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(r)
		ch <- read{b, err}
	}()
	select {
	case x := <-ch:
		return x.b, x.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func tooLarge(path string, limit int64) error {
	l := sizeFlag(limit)
	return fmt.Errorf("%s: input larger than %s, the limit (raise it with --max-input)", displayName(path), l.String())
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// options are the pipeline's options for the file path: its name in
// diagnostics, the dialect, and messages worded with the command's flags.
func (lf *loadFlags) options(path string) boolprog.Options {
	return boolprog.Options{Filename: displayName(path), Dialect: lf.dialect.d, CommandLine: true}
}

// reader returns the pipeline's reader of the file path ("-": standard
// input): at most --max-input bytes, stopped when its context ends, its
// errors worded as the command's diagnostics about the file.
func (lf *loadFlags) reader(path string, stdin io.Reader) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) {
		src, err := readInput(ctx, path, int64(lf.maxInput), stdin)
		if err != nil && ctx.Err() == nil {
			return nil, errors.New(fileError(displayName(path), err)[0].Msg)
		}
		return src, err
	}
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

// fileError is a diagnostic about a whole file (no position). The message
// of an *os.PathError already names the file: it is printed as is.
func fileError(name string, err error) syntax.ErrorList {
	msg := err.Error()
	var pe *os.PathError
	if errors.As(err, &pe) {
		msg = pe.Op + ": " + pe.Err.Error()
	} else {
		msg = strings.TrimPrefix(msg, name+": ")
	}
	return syntax.ErrorList{{Filename: name, Msg: msg}}
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
