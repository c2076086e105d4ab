package ir_test

import (
	"math/rand/v2"
	"testing"

	"boolprog/ir"
	"boolprog/syntax"
)

// values is the reference semantics of package ir: the set of values e
// can take (bit 0 false, bit 1 true), every * and every undecided schoose
// an independent choice.
func values(e ir.Expr, val func(ir.VarRef) bool) int {
	bit := func(b bool) int {
		if b {
			return 2
		}
		return 1
	}
	switch e := e.(type) {
	case *ir.Const:
		return bit(e.Value)
	case *ir.Nondet:
		return 3
	case *ir.Var:
		return bit(val(e.VarRef))
	case *ir.Not:
		x := values(e.X, val)
		return x>>1 | x&1<<1
	case *ir.Bin:
		x, y, r := values(e.X, val), values(e.Y, val), 0
		for _, a := range []bool{false, true} {
			for _, b := range []bool{false, true} {
				if x&bit(a) != 0 && y&bit(b) != 0 {
					r |= bit(ir.ApplyOp(e.Op, a, b))
				}
			}
		}
		return r
	case *ir.Schoose:
		p, n, r := values(e.Pos, val), values(e.Neg, val), 0
		if p&2 != 0 {
			r |= 2
		}
		if p&1 != 0 {
			r |= n >> 1 // schoose[F, T] = F
			if n&1 != 0 {
				r = 3
			}
		}
		return r
	}
	panic("unknown expression")
}

// randOps returns a random expression with every binary operator.
func randOps(r *rand.Rand, depth int) ir.Expr {
	if depth == 0 || r.IntN(4) == 0 {
		return randExpr(r, 0)
	}
	switch r.IntN(8) {
	case 0:
		return &ir.Not{X: randOps(r, depth-1)}
	case 1:
		return &ir.Schoose{Pos: randOps(r, depth-1), Neg: randOps(r, depth-1)}
	}
	ops := []syntax.Op{syntax.And, syntax.Or, syntax.Xor, syntax.Neq, syntax.Eq, syntax.Implies}
	return &ir.Bin{Op: ops[r.IntN(len(ops))], X: randOps(r, depth-1), Y: randOps(r, depth-1)}
}

// TestPossible compares Possible in the algebra of truth values, and Eval,
// with the reference semantics on random expressions in random states.
func TestPossible(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		e := randOps(r, 5)
		state := r.Uint64()
		val := func(v ir.VarRef) bool {
			i := v.Index
			if v.Global {
				i += 3
			}
			return state>>i&1 == 1
		}
		p := ir.Possible[bool](ir.Bools{}, e, func(v *ir.Var) (bool, bool) { x := val(v.VarRef); return x, !x })
		got := 0
		if p.False(ir.Bools{}) {
			got |= 1
		}
		if p.True(ir.Bools{}) {
			got |= 2
		}
		if gt, gf := ir.Eval(e, func(v *ir.Var) bool { return val(v.VarRef) }); gt != (got&2 != 0) || gf != (got&1 != 0) {
			t.Fatalf("Eval: can be true %v, false %v; Possible %02b", gt, gf, got)
		}
		if want := values(e, val); got != want {
			t.Fatalf("%s: possible values %02b, want %02b", (&ir.Program{Globals: []string{"g0", "g1", "g2"}}).ExprString(&ir.Proc{Locals: []string{"l0", "l1", "l2"}}, e), got, want)
		}
		if p.Nondet != ir.IsNondet(e) {
			t.Fatalf("Nondet %v, IsNondet %v", p.Nondet, ir.IsNondet(e))
		}
	}
}

// TestPossibleLinear walks chains of 100,000 operands: two steps per
// operator and one per operand, whatever the depth.
func TestPossibleLinear(t *testing.T) {
	const n = 100_000
	for _, nondet := range []bool{false, true} {
		var e ir.Expr = &ir.Var{VarRef: ir.VarRef{Global: true}}
		if nondet {
			e = &ir.Nondet{}
		}
		for i := 1; i < n; i++ {
			e = &ir.Bin{Op: syntax.And, X: e, Y: &ir.Var{VarRef: ir.VarRef{Global: true}}}
		}
		p := ir.Possible[bool](ir.Bools{}, e, func(*ir.Var) (bool, bool) { return true, false })
		if want := 2*(n-1) + n; p.Steps() != want {
			t.Errorf("nondet %v: %d steps, want %d", nondet, p.Steps(), want)
		}
		if !p.True(ir.Bools{}) || p.False(ir.Bools{}) != nondet {
			t.Errorf("nondet %v: wrong values", nondet)
		}
	}
}

// TestEvalDeep compares Eval with Possible on deep random chains of
// every operator (deeper than Eval recurses); TestPossible compares both
// with the reference semantics.
func TestEvalDeep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ops := []syntax.Op{syntax.And, syntax.Or, syntax.Xor, syntax.Neq, syntax.Eq, syntax.Implies}
	for i := range 20 {
		e := randOps(r, 3)
		for range 5000 {
			switch r.IntN(4) {
			case 0:
				e = &ir.Not{X: e}
			case 1:
				e = &ir.Schoose{Pos: e, Neg: randOps(r, 2)}
			default:
				e = &ir.Bin{Op: ops[r.IntN(len(ops))], X: randOps(r, 2), Y: e}
			}
		}
		state := r.Uint64()
		val := func(v *ir.Var) bool { return state>>(v.Index+3*b2i(v.Global))&1 == 1 }
		p := ir.Possible[bool](ir.Bools{}, e, func(v *ir.Var) (bool, bool) { x := val(v); return x, !x })
		gt, gf := ir.Eval(e, val)
		if gt != p.True(ir.Bools{}) || gf != p.False(ir.Bools{}) {
			t.Fatalf("chain %d: Eval %v, %v; Possible %v, %v", i, gt, gf, p.True(ir.Bools{}), p.False(ir.Bools{}))
		}
	}
	// A chain of 200,000 operators does not recurse 200,000 deep.
	if gt, gf := ir.Eval(chain(200_000, true), func(*ir.Var) bool { return true }); !gt || !gf {
		t.Errorf("a nondeterministic chain: can be true %v, false %v", gt, gf)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
