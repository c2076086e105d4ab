package boolprog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"boolprog/internal/bytesize"
	"boolprog/internal/interruptible"
)

// StdinName names standard input (the path "-" of FileReader) in
// diagnostics and reports.
const StdinName = "<stdin>"

// DisplayName is how diagnostics name the file at path: StdinName for
// "-".
func DisplayName(path string) string {
	if path == "-" {
		return StdinName
	}
	return path
}

// FileReader returns the reader of the file at path ("-": stdin, if not
// nil) for CheckFunc, Load and ValidateWitness, as the command reads its
// files: at most Options.MaxInput bytes (a larger input is an error that
// names the limit and the option that raises it; the reader never holds
// more than the limit and one byte), a directory refused, and a read that
// can block (standard input, a pipe) abandoned when the context ends, the
// context's cause then being the error. The other errors say what went
// wrong without the file's name ("open: no such file or directory"),
// which the diagnostic adds.
func FileReader(path string, stdin io.Reader, opts Options) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) { return readFile(ctx, path, stdin, &opts) }
}

// ReadFile reads a file that is not a program (a witness, a fixed-point
// model, a pushdown system) as FileReader reads one. An error, the end of
// ctx included, is an *InputError about the file (DisplayName(path)).
func ReadFile(ctx context.Context, path string, stdin io.Reader, opts Options) ([]byte, error) {
	src, err := readFile(ctx, path, stdin, &opts)
	if err != nil {
		return nil, &InputError{Diagnostics: []Diagnostic{{File: DisplayName(path), Message: err.Error()}}}
	}
	return src, nil
}

func readFile(ctx context.Context, path string, stdin io.Reader, o *Options) ([]byte, error) {
	limit := o.maxInput()
	r := stdin
	regular := false
	if path != "-" || stdin == nil {
		f, err := os.Open(path)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				// "open: ...": the diagnostic names the file already.
				return nil, fmt.Errorf("%s: %v", pe.Op, pe.Err)
			}
			return nil, err
		}
		defer f.Close()
		info, err := f.Stat()
		if err == nil && info.IsDir() {
			return nil, errors.New("is a directory")
		}
		if err == nil && info.Mode().IsRegular() {
			if info.Size() > limit {
				return nil, o.tooLarge(limit)
			}
			regular = true
		}
		r = f
	}
	if regular {
		// A regular file cannot keep the reader waiting.
		return o.readLimited(r)
	}
	// A read blocked on a terminal or pipe cannot be cancelled: it is
	// left behind, and the caller goes on without waiting for it.
	type read struct {
		b   []byte
		err error
	}
	x, ok := interruptible.Run(ctx, func() read {
		b, err := o.readLimited(r)
		return read{b, err}
	})
	if !ok {
		return nil, context.Cause(ctx)
	}
	return x.b, x.err
}

// tooLarge is the error of an input larger than limit bytes.
func (o *Options) tooLarge(limit int64) error {
	size := fmt.Sprintf("%d bytes", limit)
	if o.CommandLine {
		size = bytesize.Size(limit).String()
	}
	return fmt.Errorf("input larger than %s, the limit (raise it with %s)", size, o.optionName("MaxInput", "--max-input"))
}
