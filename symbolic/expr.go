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
func (l *Layout) Poss(e ir.Expr, read Reader) (t, f bdd.Node) {
	m := l.M
	switch e := e.(type) {
	case *ir.Const:
		if e.Value {
			return bdd.True, bdd.False
		}
		return bdd.False, bdd.True
	case *ir.Nondet:
		return bdd.True, bdd.True
	case *ir.Var:
		v := read(e)
		return m.Ithvar(v), m.NIthvar(v)
	case *ir.Not:
		t, f := l.Poss(e.X, read)
		return f, t
	case *ir.Bin:
		xt, xf := l.Poss(e.X, read)
		yt, yf := l.Poss(e.Y, read)
		if !ir.IsNondet(e) {
			// Deterministic: one BDD and its negation.
			var r bdd.Node
			switch e.Op {
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
				panic(fmt.Sprintf("symbolic: bad operator %v", e.Op))
			}
			return r, m.Not(r)
		}
		switch e.Op {
		case syntax.And:
			return m.And(xt, yt), m.Or(xf, yf)
		case syntax.Or:
			return m.Or(xt, yt), m.And(xf, yf)
		case syntax.Xor, syntax.Neq:
			return m.Or(m.And(xt, yf), m.And(xf, yt)), m.Or(m.And(xt, yt), m.And(xf, yf))
		case syntax.Eq:
			return m.Or(m.And(xt, yt), m.And(xf, yf)), m.Or(m.And(xt, yf), m.And(xf, yt))
		case syntax.Implies:
			return m.Or(xf, yt), m.And(xt, yf)
		}
		panic(fmt.Sprintf("symbolic: bad operator %v", e.Op))
	case *ir.Schoose:
		// T if Pos can hold; F if Pos can fail and Neg can hold; either if
		// both can fail.
		pt, pf := l.Poss(e.Pos, read)
		_, nf := l.Poss(e.Neg, read)
		return m.Or(pt, m.And(pf, nf)), pf
	}
	panic(fmt.Sprintf("symbolic: unknown expression %T", e))
}

// CanBeTrue returns the states in which e can evaluate to true.
func (l *Layout) CanBeTrue(e ir.Expr, read Reader) bdd.Node {
	t, _ := l.Poss(e, read)
	return t
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
