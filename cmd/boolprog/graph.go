package main

import (
	"bufio"
	"context"
	"fmt"

	"boolprog"
	"boolprog/ir"
)

const graphHead = `usage: boolprog graph [flags] FILE

Prints the control-flow automata of FILE ("-": standard input) as Graphviz
DOT (render with: dot -Tsvg). Error locations are red octagons.
`

func runGraph(args []string, s *streams) int {
	c := newCommand("graph", graphHead)
	var lf loadFlags
	lf.register(c.fs)
	var target string
	c.fs.StringVar(&target, "target", "", "error label to mark (default SLIC_ERROR; a label given here must occur)")
	c.fs.StringVar(&target, "l", "", "shorthand for --target")
	var projection projectionFlag
	projection.register(c.fs, graphProjectionDoc)
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(files) != 1 {
		return c.usageError(s, "want exactly one FILE, not %d", len(files))
	}
	_, prog, ok := loadProgram(context.Background(), files[0], &lf, target, nil, s)
	if !ok {
		return exitInput
	}
	w := bufio.NewWriter(s.stdout)
	write := func() error { return ir.WriteDOT(w, prog) }
	if projection.on {
		proj, err := boolprog.ErrorProjection(context.Background(), prog, 0)
		if err != nil {
			fmt.Fprintf(s.stderr, "note: %v\n", err)
			return exitUnknown
		}
		write = func() error { return proj.WriteDOT(w, prog) }
	}
	if err := write(); err != nil {
		fmt.Fprintf(s.stderr, "boolprog graph: %v\n", err)
		return exitUsage
	}
	w.Flush()
	return exitOK
}
