package cegar_test

import (
	"context"
	"slices"
	"testing"

	"boolprog/cpa"
	"boolprog/cpa/cegar"
	"boolprog/cpa/explicitval"
	"boolprog/internal/testsuite"
	"boolprog/interp"
)

const src = `
decl x, y, z, noise;
bool copy(v)
begin
  return v;
end
void main()
begin
  decl l;
  noise := *;
  x := T;
  l := copy(x);
  y := l;
  if (noise) then
    z := !z;
  fi
  assert(y);
end
`

// build returns the model-checking analysis at a precision.
func build(c *cpa.CFA) func(*explicitval.Precision) (cpa.Analysis, error) {
	return func(prec *explicitval.Precision) (cpa.Analysis, error) {
		comp := cpa.NewComposite(c, cpa.MergeSep, cpa.StopSep, &explicitval.Analysis{P: c.Prog, Prec: prec})
		return cpa.NewSummaries(comp, true), nil
	}
}

// TestCheck proves the program by refining: y depends on x through the
// local l, the call's parameter and its returned value; noise and z never
// matter.
func TestCheck(t *testing.T) {
	p := testsuite.Lower(t, "c.bp", src, "")
	c := cpa.NewCFA(p, nil)
	out, err := cegar.Check(context.Background(), c, cegar.Options{Build: build(c)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Trace != nil || out.GaveUp != "" || out.Reached.Target != nil {
		t.Fatalf("not proved: %+v", out)
	}
	// y, l, x, and copy's parameter v: nothing else.
	if out.Tracked != 4 {
		t.Errorf("%d variables tracked after %d refinements, want 4 (x, y, l, v)", out.Tracked, out.Refinements)
	}
}

// TestRefine checks the dependency closure along an infeasible path.
func TestRefine(t *testing.T) {
	p := testsuite.Lower(t, "c.bp", src, "")
	c := cpa.NewCFA(p, nil)
	a, _ := build(c)(explicitval.NewPrecision(p))
	r, err := cpa.Run(context.Background(), a, c, cpa.Options{})
	if err != nil || r.Target == nil {
		t.Fatalf("no abstract counterexample: %v", err)
	}
	path := cpa.Path(c, r.Target)
	_, err = explicitval.Concretize(context.Background(), c, path)
	inf, ok := err.(*explicitval.Infeasible)
	if !ok {
		t.Fatalf("the abstract counterexample is not infeasible: %v", err)
	}
	if inf.Fail != len(path)-1 {
		t.Errorf("fails at edge %d of %d, want the assert", inf.Fail, len(path))
	}
	prec := explicitval.NewPrecision(p)
	if n := cegar.Refine(c, path, inf.Fail, prec); n != 4 {
		t.Errorf("refinement added %d variables, want 4", n)
	}
	if !slices.Equal(prec.G, []bool{true, true, false, false}) {
		t.Errorf("globals tracked %v, want x and y", prec.G)
	}
}

// TestUnsafe finds a real error of a family member and its trace replays.
func TestUnsafe(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", cegar.Family(20, true), "")
	c := cpa.NewCFA(p, nil)
	out, err := cegar.Check(context.Background(), c, cegar.Options{Build: build(c)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Trace == nil {
		t.Fatalf("no counterexample: %+v", out)
	}
	if err := interp.Replay(p, out.Trace); err != nil {
		t.Error(err)
	}
	if out.Tracked > 2 {
		t.Errorf("%d variables tracked", out.Tracked)
	}
}
