package concprod_test

import (
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
	"boolprog/syntax"
)

// TestDeadLocals checks the freeing of dead locals on a program where a
// thread's stale copy of a global would double the states: the answer
// and bound are those of the search that keeps every value, and the trace
// (which crosses locations where the copy is dead, and a call that
// returns into a dead target) replays with its real values.
func TestDeadLocals(t *testing.T) {
	src := `decl g, h;
void thread0()
begin
  decl a, b;
  a := g;
  h := a;
  b := f(a);
  a := T;
  g := !g;
  SLIC_ERROR: skip;
end
void thread1()
begin
  decl c;
  c := h;
  if (c & g) then SLIC_ERROR: skip; fi
  g := c;
end
bool f(x)
begin
  decl y;
  y := !x;
  return y;
end
`
	p := testsuite.LowerDialect(t, "dead.bp", src, syntax.Getafix, "")
	for _, b := range []result.Bound{cs(1), cs(3), rounds(2), {}} {
		q := engine.Query{Bound: b}
		got := testsuite.Check(t, concprod.New(), p, q)
		want := testsuite.Check(t, newEngine(t, concprod.Options{KeepDeadLocals: true}), p, q)
		if got.Verdict != want.Verdict || got.Bound != want.Bound {
			t.Errorf("at %s: %s %s, keeping dead locals %s %s", b, got.Verdict, got.Bound, want.Verdict, want.Bound)
		}
		if got.Verdict != result.Unsafe {
			t.Errorf("at %s: %s, want FAILED", b, got.Verdict)
		}
	}
}

// TestDeadLocalsDifferential compares the search with and without the
// freeing of dead locals on random programs rich in locals and calls:
// the same answers at the same least bounds, traces replayed (-long: 60
// programs, and without a bound too: seed 1's every interleaving takes
// seconds).
func TestDeadLocalsDifferential(t *testing.T) {
	n := testflags.N(2, 3, 60, 400)
	bounds := []result.Bound{cs(1), rounds(2)}
	if testflags.Long() {
		bounds = append(bounds, result.Bound{})
	}
	freed, kept, unsafe, _, _ := reductionDifferential(t, n, gen.Options{Globals: 3, MaxLocals: 6, Procs: 3, Stmts: 6, Omit: gen.Recursion},
		bounds, 5*time.Second, concprod.Options{KeepDeadLocals: true})
	t.Logf("%d programs, %d unsafe answers: peak BDD nodes summed, freed %d, kept %d", n, unsafe, freed, kept)
}
