package main

import (
	"bytes"
	"context"
	"fmt"

	"boolprog/internal/atomicfile"
	"boolprog/syntax"
)

const fmtHead = `usage: boolprog fmt [-w] [flags] FILE...

Checks each FILE ("-": standard input) as check does (syntax and semantic
errors, exit 2) and prints it in canonical form, or with -w rewrites it in
place. A file with errors is neither printed nor rewritten. The output parses
to the same program under both precedence dialects. Comments are kept.
`

func runFmt(args []string, s *streams) int {
	c := newCommand("fmt", fmtHead)
	var lf loadFlags
	lf.register(c.fs)
	write := c.fs.Bool("w", false, "write the result back to the file instead of printing it")
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(files) == 0 {
		return c.usageError(s, "no FILE to format")
	}
	if countStdin(files) > 1 {
		return c.usageError(s, "standard input (-) can be read only once")
	}
	if *write && countStdin(files) > 0 {
		return c.usageError(s, "-w cannot rewrite standard input")
	}
	code := exitOK
	for _, path := range files {
		l, ok := load(context.Background(), path, &lf, s)
		if !ok {
			code = exitInput
			continue
		}
		name, src, f := l.Name, l.Text, l.File
		var out bytes.Buffer
		if err := syntax.Fprint(&out, f); err != nil {
			fmt.Fprintf(s.stderr, "boolprog fmt: %s: %v\n", name, err)
			code = exitUsage
			continue
		}
		if !*write {
			s.stdout.Write(out.Bytes())
			continue
		}
		if bytes.Equal(src, out.Bytes()) {
			continue
		}
		if err := atomicfile.Replace(path, out.Bytes()); err != nil {
			fmt.Fprintf(s.stderr, "boolprog fmt: %v\n", err)
			code = exitUsage
		}
	}
	return code
}
