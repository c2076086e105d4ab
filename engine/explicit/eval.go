package explicit

import (
	"boolprog/ir"
)

// A valuation assigns values to the variables in scope in one procedure:
// bit i is global i for i < len(Program.Globals), bit len(Globals)+j is
// local j.
type valuation = uint64

// layout knows where each variable of a procedure sits in a valuation.
type layout struct {
	ng int // number of globals
}

func (l layout) bit(v ir.VarRef) uint {
	if v.Global {
		return uint(v.Index)
	}
	return uint(l.ng + v.Index)
}

func (l layout) get(val valuation, v ir.VarRef) bool { return val>>l.bit(v)&1 != 0 }

func (l layout) set(val valuation, v ir.VarRef, x bool) valuation {
	if x {
		return val | 1<<l.bit(v)
	}
	return val &^ (1 << l.bit(v))
}

// globalsMask returns the bits of the globals (all 64 when there are 64).
func (l layout) globalsMask() valuation {
	if l.ng >= 64 {
		return ^valuation(0)
	}
	return 1<<uint(l.ng) - 1
}

// possible is the set of values an expression can take: bit 0 false, bit 1
// true.
type possible uint8

const (
	pFalse possible = 1 << iota
	pTrue
	pBoth = pFalse | pTrue
)

func (p possible) has(x bool) bool {
	if x {
		return p&pTrue != 0
	}
	return p&pFalse != 0
}

func exactly(x bool) possible {
	if x {
		return pTrue
	}
	return pFalse
}

// eval returns the values e can take with unprimed variables read from
// cur and primed ones from next: the one expression algebra of package ir
// in truth values (ir.Eval). A variable alone, the commonest assigned
// value, is read here without the call.
func (l layout) eval(e ir.Expr, cur, next valuation) possible {
	if v, ok := e.(*ir.Var); ok {
		if v.Primed {
			return exactly(l.get(next, v.VarRef))
		}
		return exactly(l.get(cur, v.VarRef))
	}
	t, f := ir.Eval(e, func(v *ir.Var) bool {
		if v.Primed {
			return l.get(next, v.VarRef)
		}
		return l.get(cur, v.VarRef)
	})
	var r possible
	if t {
		r |= pTrue
	}
	if f {
		r |= pFalse
	}
	return r
}

// vectors returns every combination of values of the expressions evaluated
// in cur, as bit vectors (bit i is the value of es[i]; len(es) <= 64, as
// every caller's expressions are bounded by the variables or returned
// values in scope). The number of vectors doubles with each
// nondeterministic expression, so it is checked against the budget first.
func (s *search) vectors(es []ir.Expr, cur valuation) []uint64 {
	out := []uint64{0}
	for i, e := range es {
		p := s.lay.eval(e, cur, cur)
		if p == pBoth {
			s.need(2 * uint64(len(out)))
		}
		var next []uint64
		for _, v := range out {
			if p.has(false) {
				next = append(next, v)
			}
			if p.has(true) {
				next = append(next, v|1<<uint(i))
			}
		}
		out = next
	}
	return out
}

// post returns the valuations after an intraprocedural Skip, Assume or
// Assign edge from cur.
func (s *search) post(op ir.Op, cur valuation) []valuation {
	switch op := op.(type) {
	case *ir.Skip, *ir.Return:
		return []valuation{cur}
	case *ir.Assume:
		if s.lay.eval(op.Cond, cur, cur).has(true) {
			return []valuation{cur}
		}
		return nil
	case *ir.Assign:
		var out []valuation
		for _, vec := range s.vectors(op.Values, cur) {
			next := cur
			for i, t := range op.Targets {
				next = s.lay.set(next, t, vec>>uint(i)&1 != 0)
			}
			if op.Constrain == nil || s.lay.eval(op.Constrain, cur, next).has(true) {
				out = append(out, next)
			}
		}
		return out
	}
	panic("explicit: post of a non-local operation")
}
