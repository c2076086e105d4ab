package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"boolprog"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
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

// compute returns the error projection of p, or a note on stderr's behalf
// saying why there is none.
func (f *projectionFlag) compute(ctx context.Context, p *ir.Program, maxNodes int) (*boolprog.Projection, string) {
	if p.Concurrent || p.Main < 0 {
		return nil, "note: no error projection: the program is concurrent"
	}
	proj, err := boolprog.ErrorProjection(ctx, p, maxNodes)
	if err != nil {
		why := err.Error()
		switch {
		case ctx.Err() != nil:
			why = engine.StopReason(ctx)
		case strings.Contains(why, "node limit"):
			why = "BDD node limit reached"
		}
		return nil, "note: no error projection: " + why
	}
	return proj, ""
}

// valuesText sums up the states of a projected location per variable:
// "g=1 h=*" (* where both values occur).
func valuesText(p *ir.Program, pl result.ProjectedLocation) string {
	proc := p.Procs[pl.Proc]
	parts := make([]string, len(pl.Vars))
	for i, v := range pl.Vars {
		val := "*"
		switch pl.Values[i] {
		case 0:
			val = "0"
		case 1:
			val = "1"
		}
		parts[i] = p.VarName(proc, v) + "=" + val
	}
	return strings.Join(parts, " ")
}

// locationText is how a location reads in a listing.
func locationText(proc *ir.Proc, loc *ir.Location) string {
	switch loc.Kind {
	case ir.ExitLoc:
		return "end (return from " + proc.Name + ")"
	case ir.FailLoc:
		return "assertion failure"
	}
	s := loc.Text
	if len(loc.Labels) > 0 {
		s = strings.Join(loc.Labels, ": ") + ": " + s
	}
	return s
}

// runProjection is check's hook: it prints the error projection of p (from
// file name) on w, or a note on errw.
func (f *projectionFlag) runProjection(ctx context.Context, w, errw io.Writer, name string, p *ir.Program, maxNodes int) {
	if !f.on {
		return
	}
	proj, note := f.compute(ctx, p, maxNodes)
	if proj == nil {
		fmt.Fprintln(errw, note)
		return
	}
	locs := 0
	for _, pr := range p.Procs {
		locs += len(pr.Locations)
	}
	sorted := append([]result.ProjectedLocation(nil), proj.Locations...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Proc != b.Proc {
			return a.Proc < b.Proc
		}
		return p.Procs[a.Proc].Locations[a.Loc].Pos.Line < p.Procs[b.Proc].Locations[b.Loc].Pos.Line
	})
	fmt.Fprintf(w, "error projection: %d of %d locations lie on a run to an error\n", len(sorted), locs)
	for _, pl := range sorted {
		proc := p.Procs[pl.Proc]
		loc := proc.Locations[pl.Loc]
		states := "states"
		if pl.Count == 1 {
			states = "state"
		}
		fmt.Fprintf(w, "%s:%d: %s: %s  [%s] (%.0f %s)\n", name, loc.Pos.Line, proc.Name, locationText(proc, loc), valuesText(p, pl), pl.Count, states)
	}
}

// writeProjectionDOT writes the DOT graph of p (ir.WriteDOT) with the
// locations of proj filled yellow and their values as tooltips: node
// statements after the graph's own override their attributes.
func writeProjectionDOT(w io.Writer, p *ir.Program, proj *boolprog.Projection) error {
	var b bytes.Buffer
	if err := ir.WriteDOT(&b, p); err != nil {
		return err
	}
	out := bytes.TrimSuffix(bytes.TrimRight(b.Bytes(), "\n"), []byte("}"))
	if _, err := w.Write(out); err != nil {
		return err
	}
	for _, pl := range proj.Locations {
		fmt.Fprintf(w, "\t\"p%d_l%d\" [style=filled, fillcolor=yellow, tooltip=%q];\n", pl.Proc, pl.Loc, valuesText(p, pl))
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}
