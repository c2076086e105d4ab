package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"boolprog"
	"boolprog/ir"
)

// projectionFlag is --error-projection of check and graph: compute Lal's
// error projection (boolprog.ErrorProjection) and print it as source lines (check)
// or mark it on the DOT graph (graph).
type projectionFlag struct {
	on bool
}

func (f *projectionFlag) register(fs *flag.FlagSet, what string) {
	fs.BoolVar(&f.on, "error-projection", false, what)
}

const (
	checkProjectionDoc = "also list the error projection: every location on some run from the start to an error, with the values of the variables there (post* and pre* intersected; sequential programs)"
	graphProjectionDoc = "mark the error projection (the locations on some run from the start to an error) with a yellow fill and the values there as a tooltip"
)

// runProjection is check's hook: it prints the error projection of p (from
// file name) on w, or a note on errw saying why there is none.
func (f *projectionFlag) runProjection(ctx context.Context, w, errw io.Writer, name string, p *ir.Program, maxNodes int) {
	if !f.on {
		return
	}
	proj, err := boolprog.ErrorProjection(ctx, p, maxNodes)
	if err != nil {
		fmt.Fprintf(errw, "note: %v\n", err)
		return
	}
	proj.WriteText(w, name, p)
}
