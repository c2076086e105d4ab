package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"boolprog/ir"
)

func runGraph(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var dialect dialectFlag
	var target string
	fs.Var(&dialect, "dialect", "operator precedence: cprover or getafix")
	fs.StringVar(&target, "target", "", "error label to mark (default SLIC_ERROR)")
	fs.StringVar(&target, "l", "", "shorthand for --target")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: boolprog graph [flags] FILE\n\nPrints the control-flow automata as Graphviz DOT (render with: dot -Tsvg).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) != 1 {
		fs.Usage()
		return exitUsage
	}
	l, ok := load(files[0], dialect.d, stderr)
	if !ok {
		return exitInput
	}
	prog, ok := l.lower(target, stderr)
	if !ok {
		return exitInput
	}
	w := bufio.NewWriter(stdout)
	if err := ir.WriteDOT(w, prog); err != nil {
		fmt.Fprintf(stderr, "boolprog: %v\n", err)
		return exitUsage
	}
	w.Flush()
	return exitOK
}
