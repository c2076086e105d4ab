package result

import (
	"fmt"

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
