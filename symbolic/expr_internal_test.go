package symbolic

import (
	"fmt"
	"testing"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/syntax"
)

// chain returns g op g op … op g with n operands as the flat, left-deep
// tree a parser makes of it, with a `*` as the leftmost operand if nondet
// (the worst case for a walk that asks, at every node, whether its subtree
// is nondeterministic).
func chain(op syntax.Op, n int, nondet bool) ir.Expr {
	g := func() ir.Expr { return &ir.Var{VarRef: ir.VarRef{Global: true, Index: 0}} }
	var e ir.Expr = g()
	if nondet {
		e = &ir.Nondet{}
	}
	for i := 1; i < n; i++ {
		e = &ir.Bin{Op: op, X: e, Y: g()}
	}
	return e
}

// TestPossLinear compiles chains of 100,000 operands: the walk takes two
// steps per operator and one per operand (linear, where asking whether
// each subtree is nondeterministic was quadratic), and the values are
// right.
func TestPossLinear(t *testing.T) {
	const n = 100_000
	m := bdd.New(bdd.Config{})
	p := &ir.Program{Globals: []string{"g"}}
	l := NewLayout(m, p, OrderDeclaration)
	g := l.Lit(0, Cur)
	for _, c := range []struct {
		op     syntax.Op
		nondet bool
		t, f   bdd.Node
	}{
		{syntax.And, false, g, m.Not(g)},
		{syntax.And, true, g, bdd.True}, // * & g & … : true only if g, false always possible
		{syntax.Or, true, bdd.True, m.Not(g)},
		{syntax.Xor, false, bdd.False, bdd.True}, // an even number of g's
		{syntax.Eq, true, bdd.True, bdd.True},
	} {
		e := chain(c.op, n, c.nondet)
		tb, fb := l.Poss(e, l.Reading(Cur))
		if want, steps := 2*(n-1)+n, l.poss(e, l.Reading(Cur)).Steps(); steps != want {
			t.Errorf("%v chain (nondet %v): %d steps, want %d", c.op, c.nondet, steps, want)
		}
		if tb != c.t || fb != c.f {
			t.Errorf("%v chain (nondet %v): wrong values", c.op, c.nondet)
		}
	}
}

// BenchmarkPossChain compiles g & g & … & g chains of growing length with a
// `*` at the deepest operand: the time per operand should stay flat.
func BenchmarkPossChain(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 160_000, 640_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			m := bdd.New(bdd.Config{})
			l := NewLayout(m, &ir.Program{Globals: []string{"g"}}, OrderDeclaration)
			e := chain(syntax.And, n, true)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				l.Poss(e, l.Reading(Cur))
				m.Safepoint()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/operand")
		})
	}
}
