package symbolic

import (
	"fmt"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/syntax"
)

// Reader says which BDD variable an occurrence of a variable in an
// expression reads.
type Reader func(v *ir.Var) int

// Reading returns the Reader that reads every variable (primed or not) from
// copy c of its slot.
func (l *Layout) Reading(c Copy) Reader {
	return func(v *ir.Var) int { return l.Var(l.Slot(v.VarRef), c) }
}

// Poss returns the possible values of e as two BDDs: t holds where e can
// evaluate to true, f where it can evaluate to false. Each `*` and each
// undecided schoose is an independent choice (package ir), so the sets
// compose exactly: for example t(x ∧ y) = t(x) ∧ t(y). t ∨ f is always True.
//
// The expression is walked once, iteratively (a flat chain of a million
// operators is neither quadratic nor deep recursion), and whether a
// subexpression is nondeterministic is computed in the same walk.
func (l *Layout) Poss(e ir.Expr, read Reader) (t, f bdd.Node) {
	v := l.poss(e, read)
	return l.tOf(v), l.fOf(v)
}

// CanBeTrue returns the states in which e can evaluate to true.
func (l *Layout) CanBeTrue(e ir.Expr, read Reader) bdd.Node {
	return l.tOf(l.poss(e, read))
}

// possVal is the value of a subexpression in Poss. A deterministic one
// (nd false) has f = ¬t, and only one of the two may be known (the other
// is Invalid): negation swaps them for free, and the complement, which
// costs time in the size of the BDD, is computed only where needed.
type possVal struct {
	t, f bdd.Node
	nd   bool
}

func (l *Layout) tOf(v possVal) bdd.Node {
	if v.t == bdd.Invalid {
		return l.M.Not(v.f)
	}
	return v.t
}

func (l *Layout) fOf(v possVal) bdd.Node {
	if v.f == bdd.Invalid {
		return l.M.Not(v.t)
	}
	return v.f
}

// poss computes Poss by a post-order walk with an explicit stack.
func (l *Layout) poss(root ir.Expr, read Reader) possVal {
	m := l.M
	type frame struct {
		e    ir.Expr
		done bool // operands computed: combine them
	}
	stack := []frame{{e: root}}
	var vals []possVal
	pop := func() possVal {
		v := vals[len(vals)-1]
		vals = vals[:len(vals)-1]
		return v
	}
	for len(stack) > 0 {
		l.possSteps++
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fr.done {
			switch e := fr.e.(type) {
			case *ir.Const:
				if e.Value {
					vals = append(vals, possVal{t: bdd.True, f: bdd.False})
				} else {
					vals = append(vals, possVal{t: bdd.False, f: bdd.True})
				}
			case *ir.Nondet:
				vals = append(vals, possVal{t: bdd.True, f: bdd.True, nd: true})
			case *ir.Var:
				v := read(e)
				vals = append(vals, possVal{t: m.Ithvar(v), f: m.NIthvar(v)})
			case *ir.Not:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.X})
			case *ir.Bin:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.Y}, frame{e: e.X})
			case *ir.Schoose:
				stack = append(stack, frame{e: e, done: true}, frame{e: e.Neg}, frame{e: e.Pos})
			default:
				panic(fmt.Sprintf("symbolic: unknown expression %T", e))
			}
			continue
		}
		switch e := fr.e.(type) {
		case *ir.Not:
			x := pop()
			vals = append(vals, possVal{t: x.f, f: x.t, nd: x.nd})
		case *ir.Bin:
			y, x := pop(), pop()
			vals = append(vals, l.bin(e.Op, x, y))
		case *ir.Schoose:
			// T if Pos can hold; F if Pos can fail and Neg can hold; either
			// if both can fail.
			n, p := pop(), pop()
			pt, pf := l.tOf(p), l.fOf(p)
			vals = append(vals, possVal{t: m.Or(pt, m.And(pf, l.fOf(n))), f: pf, nd: true})
		}
	}
	return vals[0]
}

// bin combines the values of the operands of a binary operator.
func (l *Layout) bin(op syntax.Op, x, y possVal) possVal {
	m := l.M
	if !x.nd && !y.nd {
		// Deterministic: one BDD (its negation only if needed).
		xt, yt := l.tOf(x), l.tOf(y)
		var r bdd.Node
		switch op {
		case syntax.And:
			r = m.And(xt, yt)
		case syntax.Or:
			r = m.Or(xt, yt)
		case syntax.Xor, syntax.Neq:
			r = m.Xor(xt, yt)
		case syntax.Eq:
			r = m.Equiv(xt, yt)
		case syntax.Implies:
			r = m.Imp(xt, yt)
		default:
			panic(fmt.Sprintf("symbolic: bad operator %v", op))
		}
		return possVal{t: r, f: bdd.Invalid}
	}
	xt, xf, yt, yf := l.tOf(x), l.fOf(x), l.tOf(y), l.fOf(y)
	v := possVal{nd: true}
	switch op {
	case syntax.And:
		v.t, v.f = m.And(xt, yt), m.Or(xf, yf)
	case syntax.Or:
		v.t, v.f = m.Or(xt, yt), m.And(xf, yf)
	case syntax.Xor, syntax.Neq:
		v.t, v.f = m.Or(m.And(xt, yf), m.And(xf, yt)), m.Or(m.And(xt, yt), m.And(xf, yf))
	case syntax.Eq:
		v.t, v.f = m.Or(m.And(xt, yt), m.And(xf, yf)), m.Or(m.And(xt, yf), m.And(xf, yt))
	case syntax.Implies:
		v.t, v.f = m.Or(xf, yt), m.And(xt, yf)
	default:
		panic(fmt.Sprintf("symbolic: bad operator %v", op))
	}
	return v
}

// Choose returns the relation "variable v takes a value e can have":
// (v ∧ t(e)) ∨ (¬v ∧ f(e)).
func (l *Layout) Choose(v int, e ir.Expr, read Reader) bdd.Node {
	m := l.M
	t, f := l.Poss(e, read)
	if t == bdd.True && f == bdd.True {
		return bdd.True
	}
	return m.Ite(m.Ithvar(v), t, f)
}

// Evaluator returns a layout without slots over m, for an engine that
// numbers its variables itself (one copy of the locals per thread, say):
// only the expression methods Poss, CanBeTrue and Choose may be used, and
// they read variables through the Reader they are given.
func Evaluator(m *bdd.Manager) *Layout { return &Layout{M: m} }
