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

// eval returns whether e can be true and whether it can be false with
// unprimed variables read from cur and primed ones from next: the one
// expression algebra of package ir in truth values (ir.Eval). A variable
// alone, the commonest assigned value, is read here without the call.
func (l layout) eval(e ir.Expr, cur, next valuation) (canTrue, canFalse bool) {
	if v, ok := e.(*ir.Var); ok {
		x := l.get(cur, v.VarRef)
		if v.Primed {
			x = l.get(next, v.VarRef)
		}
		return x, !x
	}
	return ir.Eval(e, func(v *ir.Var) bool {
		if v.Primed {
			return l.get(next, v.VarRef)
		}
		return l.get(cur, v.VarRef)
	})
}

// holds reports whether e can be true in cur.
func (l layout) holds(e ir.Expr, cur, next valuation) bool {
	t, _ := l.eval(e, cur, next)
	return t
}

// vectors returns every combination of values of the expressions evaluated
// in cur, as bit vectors (bit i is the value of es[i]; len(es) <= 64, as
// every caller's expressions are bounded by the variables or returned
// values in scope). The number of vectors doubles with each
// nondeterministic expression, so it is checked against the budget first.
func (s *search) vectors(es []ir.Expr, cur valuation) []uint64 {
	out := []uint64{0}
	for i, e := range es {
		t, f := s.lay.eval(e, cur, cur)
		if t && f {
			s.need(2 * uint64(len(out)))
		}
		var next []uint64
		for _, v := range out {
			if f {
				next = append(next, v)
			}
			if t {
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
		if s.lay.holds(op.Cond, cur, cur) {
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
			if op.Constrain == nil || s.lay.holds(op.Constrain, cur, next) {
				out = append(out, next)
			}
		}
		return out
	}
	panic("explicit: post of a non-local operation")
}
