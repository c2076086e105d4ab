package program

import (
	"slices"

	"boolprog/bdd"
)

// Concrete is one concrete state over a StateVars: the program counter
// (the value of the PC bits, most significant first) and a value per slot.
// The trace builders of the fixed-point engines (ef, efopt, conc-fix) walk back
// through the fixed point's rounds with such states.
type Concrete struct {
	PC   int
	Vals []bool
}

// Equal reports whether c and d are the same state.
func (c Concrete) Equal(d Concrete) bool { return c.PC == d.PC && slices.Equal(c.Vals, d.Vals) }

// Vars returns the BDD variables of the states, PC bits then slots, state
// by state.
func Vars(sts ...StateVars) []int {
	var out []int
	for _, s := range sts {
		out = append(out, s.PC...)
		out = append(out, s.Slots...)
	}
	return out
}

// Cube returns the assignment of the concrete state c to the variables of
// st.
func (st StateVars) Cube(m *bdd.Manager, c Concrete) bdd.Node {
	vals := make([]bool, 0, len(st.PC)+len(c.Vals))
	n := len(st.PC)
	for i := range st.PC {
		vals = append(vals, c.PC>>(n-1-i)&1 == 1)
	}
	vals = append(vals, c.Vals...)
	return m.Assignment(Vars(st), vals)
}

// Pick returns one assignment of f to the states sts, as concrete states,
// or nil when f has none.
func Pick(m *bdd.Manager, f bdd.Node, sts ...StateVars) []Concrete {
	set := m.VarSet(Vars(sts...)...)
	vals := m.SatOne(f, set)
	if vals == nil {
		return nil
	}
	at := map[int]bool{}
	for i, v := range set.Vars() {
		at[v] = vals[i]
	}
	out := make([]Concrete, len(sts))
	for i, st := range sts {
		c := Concrete{Vals: make([]bool, len(st.Slots))}
		for _, v := range st.PC {
			c.PC <<= 1
			if at[v] {
				c.PC |= 1
			}
		}
		for s, v := range st.Slots {
			c.Vals[s] = at[v]
		}
		out[i] = c
	}
	return out
}
