package result

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"boolprog/ir"
)

// Projection is the error projection of a program (Lal's thesis ch. 5):
// the locations that lie on some run from the start of main (any initial
// state) to an error location, a run ending at the first error it
// reaches, with the states in which such runs pass there.
type Projection struct {
	// Locations are the locations of the projection, by procedure and
	// location id.
	Locations []ProjectedLocation
}

// ProjectedLocation is one location of an error projection and its data
// values: the states (of the variables in scope: globals, then the
// procedure's locals) in which some error run passes there.
type ProjectedLocation struct {
	Proc, Loc int
	// Vars names the variables of a state, globals first.
	Vars []ir.VarRef
	// Count is the number of states.
	Count float64
	// States lists the states (each a value per variable of Vars), at most
	// the limit the projection was asked with; Truncated says there are more.
	States    [][]bool
	Truncated bool
	// Values sums the states up per variable: 0 or 1 when every state has
	// that value, -1 when both occur.
	Values []int
}

// String prints the location as "proc:loc".
func (pl ProjectedLocation) String() string { return fmt.Sprintf("%d:%d", pl.Proc, pl.Loc) }

// ValuesText sums up the states of a projected location of p per
// variable: "g=1 h=*" (* where both values occur).
func (pl ProjectedLocation) ValuesText(p *ir.Program) string {
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

// WriteText lists the projection of p, from the file name, as source
// lines by procedure and line, after a line that counts them:
// "name:line: proc: statement  [values] (N states)".
func (pr *Projection) WriteText(w io.Writer, name string, p *ir.Program) error {
	locs := 0
	for _, proc := range p.Procs {
		locs += len(proc.Locations)
	}
	sorted := append([]ProjectedLocation(nil), pr.Locations...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Proc != b.Proc {
			return a.Proc < b.Proc
		}
		return p.Procs[a.Proc].Locations[a.Loc].Pos.Line < p.Procs[b.Proc].Locations[b.Loc].Pos.Line
	})
	if _, err := fmt.Fprintf(w, "error projection: %d of %d locations lie on a run to an error\n", len(sorted), locs); err != nil {
		return err
	}
	for _, pl := range sorted {
		proc := p.Procs[pl.Proc]
		loc := proc.Locations[pl.Loc]
		states := "states"
		if pl.Count == 1 {
			states = "state"
		}
		if _, err := fmt.Fprintf(w, "%s:%d: %s: %s  [%s] (%.0f %s)\n", name, loc.Pos.Line, proc.Name, locationText(proc, loc), pl.ValuesText(p), pl.Count, states); err != nil {
			return err
		}
	}
	return nil
}

// WriteDOT writes the DOT graph of p (ir.WriteDOT) with the locations of
// the projection filled yellow and their values as tooltips: node
// statements after the graph's own override their attributes.
func (pr *Projection) WriteDOT(w io.Writer, p *ir.Program) error {
	var b bytes.Buffer
	if err := ir.WriteDOT(&b, p); err != nil {
		return err
	}
	out := bytes.TrimSuffix(bytes.TrimRight(b.Bytes(), "\n"), []byte("}"))
	if _, err := w.Write(out); err != nil {
		return err
	}
	for _, pl := range pr.Locations {
		fmt.Fprintf(w, "\t\"p%d_l%d\" [style=filled, fillcolor=yellow, tooltip=%q];\n", pl.Proc, pl.Loc, pl.ValuesText(p))
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}
