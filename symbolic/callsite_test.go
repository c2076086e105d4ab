package symbolic_test

import (
	"testing"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// TestCallSite runs one call through a CallSite (enter, the callee's exit
// path edges built by hand from its semantics, lift, join) and compares the
// caller's states after the return with the call's semantics, for every
// state before it: x := f(g) with f(a) = (g := a & h; return !a), and an
// enforce of the caller that h | x holds after every step.
func TestCallSite(t *testing.T) {
	p := lower(t, `decl g, h;
bool f(a) begin g := a & h; return !a; end
void main() begin decl x; enforce h | x; x := f(g); end
`)
	m := bdd.New(bdd.Config{})
	l := symbolic.NewLayout(m, p, symbolic.OrderAffinity)
	main := p.Procs[p.Main]
	var call *ir.Call
	for _, e := range main.Edges {
		if c, ok := e.Op.(*ir.Call); ok {
			call = c
		}
	}
	g, h, x, a, ret := 0, 1, l.Local(0), l.Local(0), l.Ret(0)
	iface := symbolic.NewSet(l.N())
	iface.Add(g)
	iface.Add(h)
	iface.Add(a)
	reported := symbolic.NewSet(l.N())
	reported.Add(g)
	cs := l.NewCallSite(symbolic.CallSiteSpec{
		Call: call, Caller: main, CalleeEntry: iface, Iface: iface, Reported: reported,
		Keep: l.ScopeOf(main),
	})
	defer cs.Release()
	if got := cs.Changed(); !got.Has(g) || !got.Has(x) || got.Len() != 2 {
		t.Errorf("changed %v, want g and x", got.Elems())
	}
	lit := func(s int, c symbolic.Copy, v bool) bdd.Node {
		if v {
			return l.Lit(s, c)
		}
		return m.Not(l.Lit(s, c))
	}
	// The callee's exit path edges: context (g, h, a) at entry, g = a & h
	// and ret = !a at the exit.
	exit := bdd.False
	for e := 0; e < 8; e++ {
		eg, eh, ea := e&1 != 0, e&2 != 0, e&4 != 0
		pe := m.AndAll(lit(g, symbolic.Entry, eg), lit(h, symbolic.Entry, eh), lit(a, symbolic.Entry, ea),
			lit(g, symbolic.Cur, ea && eh), lit(h, symbolic.Cur, eh), lit(ret, symbolic.Cur, !ea))
		exit = m.Or(exit, pe)
	}
	sum := cs.Lift(exit)
	for st := 0; st < 8; st++ {
		sg, sh, sx := st&1 != 0, st&2 != 0, st&4 != 0
		s := m.AndAll(lit(g, symbolic.Cur, sg), lit(h, symbolic.Cur, sh), lit(x, symbolic.Cur, sx))
		// Entering: the callee's context is (g, h, a = g), Entry = Cur.
		in := cs.Enter(s)
		wantIn := m.AndAll(lit(g, symbolic.Entry, sg), lit(h, symbolic.Entry, sh), lit(a, symbolic.Entry, sg),
			lit(g, symbolic.Cur, sg), lit(h, symbolic.Cur, sh), lit(a, symbolic.Cur, sg))
		if in != wantIn {
			t.Errorf("state %03b: Enter is not the context (g, h, a=g)", st)
		}
		// Returning: g = g & h, x = !g, h kept; the enforce h | x must hold.
		out := cs.Join(s, sum)
		ng, nx := sg && sh, !sg
		want := bdd.False
		if sh || nx {
			want = m.AndAll(lit(g, symbolic.Cur, ng), lit(h, symbolic.Cur, sh), lit(x, symbolic.Cur, nx))
		}
		if out != want {
			t.Errorf("state %03b: Join gives the wrong states after the return", st)
		}
	}
}
