package ir

import (
	"fmt"

	"boolprog/syntax"
)

// Algebra is a representation of Boolean functions over the states (BDDs,
// formulas as text, plain truth values) in which Possible computes where
// an expression can be true and where it can be false.
type Algebra[F any] interface {
	True() F
	False() F
	Not(x F) F
	And(x, y F) F
	Or(x, y F) F
	Xor(x, y F) F
	Equiv(x, y F) F
	Implies(x, y F) F
}

// Poss is the set of values an expression can take, as two functions of
// the state: T where it can be true, F where it can be false (T ∨ F
// holds everywhere). Each `*` and each undecided schoose is an independent
// choice, so the sets compose exactly: T(x ∧ y) = T(x) ∧ T(y). Of a
// deterministic expression (Nondet false) F = ¬T, and only one of the two
// may have been computed: True and False compute the other, in the
// algebra, only when it is asked for (a complement costs time in the size
// of a BDD).
type Poss[F any] struct {
	t, f       F
	haveT      bool
	haveF      bool
	Nondet     bool // the expression contains a `*` or a schoose
	operations int
}

// True returns where the expression can be true.
func (p Poss[F]) True(a Algebra[F]) F {
	if !p.haveT {
		return a.Not(p.f)
	}
	return p.t
}

// False returns where the expression can be false.
func (p Poss[F]) False(a Algebra[F]) F {
	if !p.haveF {
		return a.Not(p.t)
	}
	return p.f
}

// Steps returns the number of steps of the walk that computed p: two per
// operator, one per operand (for tests of its linearity).
func (p Poss[F]) Steps() int { return p.operations }

// Possible returns the possible values of e in algebra a, with lit giving
// where a variable is true and where it is false. The expression is walked
// once, iteratively, in post-order (a flat chain of a million operators is
// neither quadratic nor deep recursion), and whether a subexpression is
// nondeterministic is computed in the same walk.
func Possible[F any](a Algebra[F], e Expr, lit func(v *Var) (t, f F)) Poss[F] {
	type frame struct {
		e    Expr
		done bool // operands computed: combine them
	}
	// The walk's stacks start in arrays of the frame, which hold the
	// expressions of most statements without allocating.
	var stackBuf [32]frame
	var valBuf [16]Poss[F]
	stack := append(stackBuf[:0], frame{e: e})
	vals := valBuf[:0]
	pop := func() Poss[F] {
		v := vals[len(vals)-1]
		vals = vals[:len(vals)-1]
		return v
	}
	both := func(t, f F, nd bool) Poss[F] { return Poss[F]{t: t, f: f, haveT: true, haveF: true, Nondet: nd} }
	steps := 0
	for len(stack) > 0 {
		steps++
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fr.done {
			switch e := fr.e.(type) {
			case *Const:
				if e.Value {
					vals = append(vals, both(a.True(), a.False(), false))
				} else {
					vals = append(vals, both(a.False(), a.True(), false))
				}
			case *Nondet:
				vals = append(vals, both(a.True(), a.True(), true))
			case *Var:
				t, f := lit(e)
				vals = append(vals, both(t, f, false))
			case *Not:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.X})
			case *Bin:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.Y}, frame{e: e.X})
			case *Schoose:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.Neg}, frame{e: e.Pos})
			default:
				panic(fmt.Sprintf("ir: unknown expression %T", e))
			}
			continue
		}
		switch e := fr.e.(type) {
		case *Not:
			x := pop()
			vals = append(vals, Poss[F]{t: x.f, f: x.t, haveT: x.haveF, haveF: x.haveT, Nondet: x.Nondet})
		case *Bin:
			y, x := pop(), pop()
			vals = append(vals, possBin(a, e.Op, x, y))
		case *Schoose:
			// T if Pos can hold; F if Pos can fail and Neg can hold; either
			// if both can fail.
			n, p := pop(), pop()
			pf := p.False(a)
			vals = append(vals, both(schooseTrue(a, p.True(a), pf, n.False(a)), pf, true))
		}
	}
	v := vals[0]
	v.operations = steps
	return v
}

// possBin combines the values of the operands of a binary operator.
func possBin[F any](a Algebra[F], op syntax.Op, x, y Poss[F]) Poss[F] {
	if !x.Nondet && !y.Nondet {
		// Deterministic: one function (its complement only if needed).
		xt, yt := x.True(a), y.True(a)
		var r F
		switch op {
		case syntax.And:
			r = a.And(xt, yt)
		case syntax.Or:
			r = a.Or(xt, yt)
		case syntax.Xor, syntax.Neq:
			r = a.Xor(xt, yt)
		case syntax.Eq:
			r = a.Equiv(xt, yt)
		case syntax.Implies:
			r = a.Implies(xt, yt)
		default:
			panic(fmt.Sprintf("ir: bad operator %v", op))
		}
		return Poss[F]{t: r, haveT: true}
	}
	v := Poss[F]{haveT: true, haveF: true, Nondet: true}
	v.t, v.f = binRule(a, op, x.True(a), x.False(a), y.True(a), y.False(a))
	return v
}

// binRule returns where x op y can be true and where it can be false,
// given where x and y can be (xt, xf and yt, yf): the rules of the
// algebra for operands that may be nondeterministic, which hold for
// deterministic ones too.
func binRule[F any, A Algebra[F]](a A, op syntax.Op, xt, xf, yt, yf F) (t, f F) {
	switch op {
	case syntax.And:
		return a.And(xt, yt), a.Or(xf, yf)
	case syntax.Or:
		return a.Or(xt, yt), a.And(xf, yf)
	case syntax.Xor, syntax.Neq:
		return a.Or(a.And(xt, yf), a.And(xf, yt)), a.Or(a.And(xt, yt), a.And(xf, yf))
	case syntax.Eq:
		return a.Or(a.And(xt, yt), a.And(xf, yf)), a.Or(a.And(xt, yf), a.And(xf, yt))
	case syntax.Implies:
		return a.Or(xf, yt), a.And(xt, yf)
	}
	panic(fmt.Sprintf("ir: bad operator %v", op))
}

// schooseTrue returns where schoose[Pos, Neg] can be true: where Pos can
// hold (pt), or Pos can fail (pf) and Neg can fail (nf). It can be false
// where Pos can fail.
func schooseTrue[F any, A Algebra[F]](a A, pt, pf, nf F) F { return a.Or(pt, a.And(pf, nf)) }

// Bools is the Algebra of plain truth values: Possible in it evaluates an
// expression in one state, T and F saying whether the expression can be
// true and whether it can be false there.
type Bools struct{}

// True returns true.
func (Bools) True() bool { return true }

// False returns false.
func (Bools) False() bool { return false }

// Not returns !x.
func (Bools) Not(x bool) bool { return !x }

// And returns x && y.
func (Bools) And(x, y bool) bool { return x && y }

// Or returns x || y.
func (Bools) Or(x, y bool) bool { return x || y }

// Xor returns x != y.
func (Bools) Xor(x, y bool) bool { return x != y }

// Equiv returns x == y.
func (Bools) Equiv(x, y bool) bool { return x == y }

// Implies returns !x || y.
func (Bools) Implies(x, y bool) bool { return !x || y }

// maxEvalDepth is how deep Eval recurses; it hands a deeper subexpression
// to Possible, which keeps its own stack. Parsed expressions stay far
// above it (operator chains are balanced); expressions built by program
// transformations may not.
const maxEvalDepth = 64

// Eval returns whether e can be true and whether it can be false in one
// state, val giving the value of each variable: Possible in the algebra
// Bools, with the same rules, for the evaluators of concrete states
// (engine/explicit's search evaluates every guard and assigned value of
// every transition). It computes both values at every node, which for
// truth values costs nothing, and recurses down to maxEvalDepth levels:
// in Go that is several times faster than Possible's explicit stack (see
// engine/explicit's BenchmarkEval), and the depth bound keeps any
// expression from recursing deeply.
func Eval(e Expr, val func(v *Var) bool) (canTrue, canFalse bool) {
	return evalDepth(e, val, 0)
}

func evalDepth(e Expr, val func(v *Var) bool, depth int) (t, f bool) {
	var a Bools
	switch e := e.(type) {
	case *Const:
		return e.Value, !e.Value
	case *Nondet:
		return true, true
	case *Var:
		x := val(e)
		return x, !x
	}
	if depth >= maxEvalDepth {
		p := Possible[bool](a, e, func(v *Var) (bool, bool) {
			x := val(v)
			return x, !x
		})
		return p.True(a), p.False(a)
	}
	switch e := e.(type) {
	case *Not:
		t, f := evalDepth(e.X, val, depth+1)
		return f, t
	case *Bin:
		xt, xf := evalDepth(e.X, val, depth+1)
		yt, yf := evalDepth(e.Y, val, depth+1)
		return binRule(a, e.Op, xt, xf, yt, yf)
	case *Schoose:
		pt, pf := evalDepth(e.Pos, val, depth+1)
		_, nf := evalDepth(e.Neg, val, depth+1)
		return schooseTrue(a, pt, pf, nf), pf
	}
	panic(fmt.Sprintf("ir: unknown expression %T", e))
}
