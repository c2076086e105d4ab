package cpa_test

import (
	"context"
	"testing"

	"boolprog/analysis"
	"boolprog/cpa"
	"boolprog/cpa/explicitval"
	"boolprog/cpa/reachdef"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
)

const calls = `
decl g;
bool id(x)
begin
  return x;
end
void flip()
begin
  g := !g;
end
void main()
begin
  decl a, b;
  a := T;
  b := id(a);
  flip();
  if (*) then
    g := F;
  else
    g := b;
  fi
  flip();
  assert(!g);
end
`

// TestOperators checks the merge and stop helpers on explicit values.
func TestOperators(t *testing.T) {
	p := testsuite.Lower(t, "ops.bp", "decl x, y;\nvoid main() begin skip; end\n", "")
	d := &explicitval.Analysis{P: p}
	st := func(vs ...explicitval.Val) cpa.State { return &explicitval.State{Proc: p.Main, V: vs} }
	const F, T, Top = explicitval.F, explicitval.T, explicitval.Top
	a, b := st(F, T), st(T, T)
	if r := cpa.MergeSepOp(d, a, b); r != b {
		t.Errorf("merge-sep changed the reached state")
	}
	if j := cpa.MergeJoinOp(d, a, b).(*explicitval.State); j.V[0] != Top || j.V[1] != T {
		t.Errorf("merge-join: %v", j.V)
	}
	tests := []struct {
		s       cpa.State
		reached []cpa.State
		sep     bool
		join    bool
	}{
		{st(F, T), []cpa.State{a}, true, true},
		{st(Top, T), []cpa.State{a, b}, false, true},
		{st(Top, F), []cpa.State{a, b}, false, false},
		{st(F, T), nil, false, false},
		{st(T, T), []cpa.State{st(Top, Top)}, true, true},
	}
	for i, tc := range tests {
		if got := cpa.StopSepOp(d, tc.s, tc.reached); got != tc.sep {
			t.Errorf("%d: stop-sep %v, want %v", i, got, tc.sep)
		}
		if got := cpa.StopJoinOp(d, tc.s, tc.reached); got != tc.join {
			t.Errorf("%d: stop-join %v, want %v", i, got, tc.join)
		}
	}
}

// TestPathThroughSummaries checks that a counterexample found with block
// summaries expands every call (Call, the callee's edges, Return, properly
// nested) and concretizes into a trace that replays, under every waitlist
// order, and that the call-stack wrapper finds one too.
func TestPathThroughSummaries(t *testing.T) {
	p := testsuite.Lower(t, "calls.bp", calls, "")
	c := cpa.NewCFA(p, nil)
	wrappers := map[string]func(*cpa.Composite) cpa.Analysis{
		"summaries": func(comp *cpa.Composite) cpa.Analysis { return cpa.NewSummaries(comp, true) },
		"callstack": func(comp *cpa.Composite) cpa.Analysis { return cpa.NewCallstack(comp, 0) },
	}
	for wname, wrap := range wrappers {
		for _, order := range []cpa.Order{cpa.BFS, cpa.DFS, cpa.RPO, cpa.CallStack} {
			comp := cpa.NewComposite(c, cpa.MergeSep, cpa.StopSep, &explicitval.Analysis{P: p})
			r, err := cpa.Run(context.Background(), wrap(comp), c, cpa.Options{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			if r.Target == nil {
				t.Fatalf("%s/%s: no target", wname, order)
			}
			path := cpa.Path(c, r.Target)
			depth := 0
			var calls []*cpa.Edge
			for _, e := range path {
				switch e.Kind {
				case cpa.Call:
					depth++
					calls = append(calls, e)
				case cpa.Return:
					depth--
					if c.CallEdge(e) != calls[len(calls)-1] {
						t.Errorf("%s/%s: return %s does not match call %s", wname, order, e, calls[len(calls)-1])
					}
					calls = calls[:len(calls)-1]
				}
				if depth < 0 {
					t.Fatalf("%s/%s: unbalanced path", wname, order)
				}
			}
			tr, err := explicitval.Concretize(context.Background(), c, path)
			if err != nil {
				t.Fatalf("%s/%s: %v", wname, order, err)
			}
			if err := interp.Replay(p, tr); err != nil {
				t.Errorf("%s/%s: %v\n%s", wname, order, err, testsuite.TraceText(tr))
			}
		}
	}
}

// TestReachingDefinitions runs reaching definitions as a data-flow
// analysis (merge-join, one context per procedure) and checks the
// definitions of g that reach the assert: the two branch assignments,
// whose effect passes through flip() (its assignment kills them: only
// flip's definition reaches).
func TestReachingDefinitions(t *testing.T) {
	p := testsuite.Lower(t, "calls.bp", calls, "")
	c := cpa.NewCFA(p, nil)
	rd := reachdef.New(p)
	comp := cpa.NewComposite(c, cpa.MergeJoin, cpa.StopSep, rd)
	r, err := cpa.Run(context.Background(), cpa.NewSummaries(comp, false), c, cpa.Options{Order: cpa.RPO, All: true})
	if err != nil {
		t.Fatal(err)
	}
	main := p.Procs[p.Main]
	var assertLoc, flipEdge int = -1, -1
	for _, l := range main.Locations {
		if l.Text == "assert(!g)" {
			assertLoc = l.ID
		}
	}
	flip := p.Proc("flip")
	for _, e := range flip.Edges {
		if _, ok := e.Op.(*ir.Assign); ok {
			flipEdge = e.ID
		}
	}
	at := r.At(cpa.Node{Proc: p.Main, Loc: assertLoc})
	if len(at) != 1 {
		t.Fatalf("%d states at the assert, want 1 (merge-join)", len(at))
	}
	defs := rd.Reaching(cpa.CompositeOf(at[0].State).Comps[1], ir.VarRef{Global: true, Index: 0})
	if len(defs) != 1 || defs[0] != (reachdef.Def{Proc: flip.Index, Edge: flipEdge}) {
		t.Errorf("definitions of g reaching the assert: %v, want flip's", defs)
	}
	// b is defined by the call b := id(a) only.
	b := rd.Reaching(cpa.CompositeOf(at[0].State).Comps[1], ir.VarRef{Index: 1})
	if len(b) != 1 || b[0].Proc != p.Main {
		t.Errorf("definitions of b: %v", b)
	}
}

// TestCFAUsesCache: NewCFA takes the reverse postorder from the cache it
// is given (the check's), not from one of its own.
func TestCFAUsesCache(t *testing.T) {
	p := testsuite.Lower(t, "calls.bp", calls, "")
	c := analysis.NewCache(p)
	rank := analysis.Of(c, analysis.RPO).Rank
	main := p.Procs[p.Main]
	rank[main.Index][main.Entry] = 12345 // a mark only the shared result has
	n := cpa.Node{Proc: main.Index, Loc: main.Entry}
	if got := cpa.NewCFA(p, c).RPO(n); got != 12345 {
		t.Errorf("RPO of main's entry %d: the CFA did not use the given cache", got)
	}
	if got := cpa.NewCFA(p, nil).RPO(n); got == 12345 {
		t.Errorf("a CFA without a cache shares another's analyses")
	}
}
