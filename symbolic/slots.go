package symbolic

import (
	"boolprog/analysis"
	"boolprog/ir"
)

// Slots numbers the storage places of a program's variables (globals,
// then the locals of the executing procedure, then the returned values):
// package analysis's numbering, which the analyses' results use too.
type Slots = analysis.Slots

// Set is a set of slots (a bit set).
type Set = analysis.Set

// SlotsOf returns the slot numbering of p.
func SlotsOf(p *ir.Program) Slots { return analysis.SlotsOf(p) }

// NewSet returns an empty set for n slots.
func NewSet(n int) Set { return analysis.NewSet(n) }
