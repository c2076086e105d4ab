package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"boolprog/syntax"
)

func runFmt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var dialect dialectFlag
	write := fs.Bool("w", false, "write the result back to the file instead of printing it")
	fs.Var(&dialect, "dialect", "operator precedence of the input: cprover or getafix")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: boolprog fmt [-w] [--dialect D] FILE...\n\nPrints each file in canonical form. The output parses to the same program\nunder both precedence dialects. Comments are kept.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) == 0 {
		fs.Usage()
		return exitUsage
	}
	code := exitOK
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "boolprog: %v\n", err)
			code = exitInput
			continue
		}
		out, err := syntax.Format(path, src, dialect.d)
		if err != nil {
			printDiagnostics(stderr, err)
			code = exitInput
			continue
		}
		if !*write {
			stdout.Write(out)
			continue
		}
		if bytes.Equal(src, out) {
			continue
		}
		if err := writeFileAtomic(path, out); err != nil {
			fmt.Fprintf(stderr, "boolprog: %v\n", err)
			code = exitUsage
		}
	}
	return code
}

// writeFileAtomic replaces path's contents without a window in which the
// file is truncated: a crash mid-write leaves the old file.
func writeFileAtomic(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".boolprog-fmt-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
