package explicitval_test

import (
	"context"
	"errors"
	"testing"

	"boolprog/cpa"
	"boolprog/cpa/explicitval"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

const prog = `
decl x, y, z;
void main()
begin
  x, y := *, T;
  z := x & y constrain ('z | !x);
  if (z) then
    assume(!x);
  fi
end
`

// post returns the successors of s along the edge whose text is text.
func post(t *testing.T, a *explicitval.Analysis, c *cpa.CFA, s *explicitval.State, text string, prec *explicitval.Precision) []cpa.State {
	t.Helper()
	main := c.Prog.Procs[c.Prog.Main]
	for _, e := range main.Edges {
		if e.Text == text {
			for _, ce := range c.Out(cpa.Node{Proc: main.Index, Loc: e.From}) {
				if ce.IR == e {
					out, err := a.Post(s, ce, prec)
					if err != nil {
						t.Fatal(err)
					}
					return out
				}
			}
		}
	}
	t.Fatalf("no edge %q", text)
	return nil
}

func vals(ss []cpa.State) []string {
	var out []string
	for _, s := range ss {
		str := ""
		for _, v := range s.(*explicitval.State).V {
			str += v.String()
		}
		out = append(out, str)
	}
	return out
}

// TestTransfer checks the exact transfer: a nondeterministic value is ⊤,
// reading a ⊤ variable splits the state, a constrain enumerates its
// targets, and an untracked variable is never split.
func TestTransfer(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", prog, "")
	c := cpa.NewCFA(p, nil)
	a := &explicitval.Analysis{P: p}
	const T, F, Top = explicitval.T, explicitval.F, explicitval.Top
	s0 := &explicitval.State{Proc: p.Main, V: []explicitval.Val{Top, Top, Top}}
	got := vals(post(t, a, c, s0, "x, y := *, T", nil))
	if len(got) != 1 || got[0] != "⊤1⊤" {
		t.Errorf("x, y := *, T: %v", got)
	}
	s1 := &explicitval.State{Proc: p.Main, V: []explicitval.Val{Top, T, Top}}
	got = vals(post(t, a, c, s1, "z := x & y constrain 'z | !x", nil))
	// x split: x=0 gives z=0 (the constrain holds by !x); x=1 gives z=1.
	if len(got) != 2 || got[0] != "010" || got[1] != "111" {
		t.Errorf("assignment with constrain: %v", got)
	}
	none := explicitval.NewPrecision(p)
	got = vals(post(t, a, c, s1, "z := x & y constrain 'z | !x", none))
	if len(got) != 1 || got[0] != "⊤1⊤" {
		t.Errorf("untracked: %v", got)
	}
	s2 := &explicitval.State{Proc: p.Main, V: []explicitval.Val{T, F, Top}}
	if got = vals(post(t, a, c, s2, "if (z)", nil)); len(got) != 1 || got[0] != "101" {
		t.Errorf("assume(z): %v", got)
	}
	if adj := a.Adjust(s2, none).(*explicitval.State); adj.V[0] != Top || adj.V[1] != Top {
		t.Errorf("precision adjustment kept %v", adj.V)
	}
	s3 := &explicitval.State{Proc: p.Main, V: []explicitval.Val{T, T, Top}}
	if !a.LessOrEqual(s3, s1) || a.LessOrEqual(s1, s3) || a.LessOrEqual(s2, s1) {
		t.Errorf("the order ⊑ is wrong")
	}
	if j := a.Join(s2, s3).(*explicitval.State); j.V[0] != T || j.V[1] != Top || j.V[2] != Top {
		t.Errorf("join %v", j.V)
	}
}

// TestConcretizeInfeasible checks that a path no execution follows is
// reported at its first impossible edge.
func TestConcretizeInfeasible(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", "decl g;\nvoid main()\nbegin\n  g := T;\n  if (!g) then\nSLIC_ERROR: skip;\n  fi\nend\n", "")
	c := cpa.NewCFA(p, nil)
	main := p.Procs[p.Main]
	var path []*cpa.Edge
	loc := main.Entry
	for _, want := range []string{"g := T", "if (!g)"} {
		for _, e := range c.Out(cpa.Node{Proc: p.Main, Loc: loc}) {
			if e.IR.Text == want {
				if _, ok := e.IR.Op.(*ir.Assume); ok && e.IR.Op.(*ir.Assume).Cond == nil {
					continue
				}
				if as, ok := e.IR.Op.(*ir.Assume); ok {
					if _, neg := as.Cond.(*ir.Not); !neg {
						continue
					}
				}
				path = append(path, e)
				loc = e.To.Loc
				break
			}
		}
	}
	if len(path) != 2 || !c.IsError(path[1].To) {
		t.Fatalf("path %v", path)
	}
	_, err := explicitval.Concretize(context.Background(), c, path)
	var inf *explicitval.Infeasible
	if !errors.As(err, &inf) || inf.Fail != 1 {
		t.Errorf("error %v, want infeasible at edge 1", err)
	}
}
