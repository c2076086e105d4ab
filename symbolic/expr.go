package symbolic

import (
	"boolprog/bdd"
	"boolprog/ir"
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
// It is ir.Possible in the algebra of BDDs.
func (l *Layout) Poss(e ir.Expr, read Reader) (t, f bdd.Node) {
	v := l.poss(e, read)
	a := bddAlgebra{l.M}
	return v.True(a), v.False(a)
}

// CanBeTrue returns the states in which e can evaluate to true.
func (l *Layout) CanBeTrue(e ir.Expr, read Reader) bdd.Node {
	return l.poss(e, read).True(bddAlgebra{l.M})
}

func (l *Layout) poss(e ir.Expr, read Reader) ir.Poss[bdd.Node] {
	m := l.M
	return ir.Possible[bdd.Node](bddAlgebra{m}, e, func(v *ir.Var) (bdd.Node, bdd.Node) {
		x := read(v)
		return m.Ithvar(x), m.NIthvar(x)
	})
}

// bddAlgebra is the ir.Algebra of the BDDs of a manager.
type bddAlgebra struct{ m *bdd.Manager }

func (bddAlgebra) True() bdd.Node                   { return bdd.True }
func (bddAlgebra) False() bdd.Node                  { return bdd.False }
func (a bddAlgebra) Not(x bdd.Node) bdd.Node        { return a.m.Not(x) }
func (a bddAlgebra) And(x, y bdd.Node) bdd.Node     { return a.m.And(x, y) }
func (a bddAlgebra) Or(x, y bdd.Node) bdd.Node      { return a.m.Or(x, y) }
func (a bddAlgebra) Xor(x, y bdd.Node) bdd.Node     { return a.m.Xor(x, y) }
func (a bddAlgebra) Equiv(x, y bdd.Node) bdd.Node   { return a.m.Equiv(x, y) }
func (a bddAlgebra) Implies(x, y bdd.Node) bdd.Node { return a.m.Imp(x, y) }

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
