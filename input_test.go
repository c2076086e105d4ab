package boolprog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog"
)

// TestFileReader: the command's reading of files and standard input, its
// messages without the file's name (ReadFile's diagnostics add it), the
// limit worded by the option or the flag, and a blocked read abandoned
// when the context ends.
func TestFileReader(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.bp")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := boolprog.Options{CommandLine: true}
	small := boolprog.Options{MaxInput: 4}
	smallCmd := boolprog.Options{MaxInput: 2048, CommandLine: true}
	for _, tc := range []struct {
		name, path, stdin string
		opts              boolprog.Options
		want, err         string
	}{
		{name: "file", path: file, want: "0123456789"},
		{name: "stdin", path: "-", stdin: "abc", want: "abc"},
		{name: "missing", path: filepath.Join(dir, "none.bp"), err: "open: no such file or directory"},
		{name: "directory", path: dir, err: "is a directory"},
		{name: "too large", path: file, opts: small, err: "input larger than 4 bytes, the limit (raise it with Options.MaxInput)"},
		{name: "stdin too large", path: "-", stdin: "0123456789", opts: small, err: "input larger than 4 bytes, the limit"},
		{name: "command's wording", path: "-", stdin: strings.Repeat("x", 4096), opts: smallCmd, err: "input larger than 2KiB, the limit (raise it with --max-input)"},
		{name: "command's default", path: file, opts: cmd, want: "0123456789"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := boolprog.FileReader(tc.path, strings.NewReader(tc.stdin), tc.opts)(context.Background())
			if string(src) != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("read %q, %v; want %q, %q", src, err, tc.want, tc.err)
			}
			_, err = boolprog.ReadFile(context.Background(), tc.path, strings.NewReader(tc.stdin), tc.opts)
			var in *boolprog.InputError
			if tc.err != "" && (!errors.As(err, &in) || in.Diagnostics[0].File != boolprog.DisplayName(tc.path) || !strings.HasPrefix(in.Diagnostics[0].Message, tc.err)) {
				t.Errorf("ReadFile: %v, want a diagnostic about %s", err, boolprog.DisplayName(tc.path))
			}
		})
	}
	// Standard input that never ends: the context's end stops the wait.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped")
	cancel(stop)
	if _, err := boolprog.FileReader("-", r, cmd)(ctx); err != stop {
		t.Errorf("a blocked read after the context ended: %v, want its cause", err)
	}
}

// TestWriteErrors: diagnostics one per line, at most MaxErrorsShown, then
// how many more; another error as its text.
func TestWriteErrors(t *testing.T) {
	var ds []boolprog.Diagnostic
	for i := 1; i <= boolprog.MaxErrorsShown+3; i++ {
		ds = append(ds, boolprog.Diagnostic{File: "f.bp", Line: i, Col: 2, Message: "bad"})
	}
	var b strings.Builder
	boolprog.WriteErrors(&b, &boolprog.InputError{Diagnostics: ds})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != boolprog.MaxErrorsShown+1 || lines[0] != "f.bp:1:2: bad" || lines[len(lines)-1] != "f.bp: ... and 3 more errors" {
		t.Errorf("%d lines: %q ... %q", len(lines), lines[0], lines[len(lines)-1])
	}
	b.Reset()
	boolprog.WriteErrors(&b, errors.New("no"))
	if b.String() != "no\n" {
		t.Errorf("a plain error: %q", b.String())
	}
}
