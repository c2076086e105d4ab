package concprod_test

import (
	"context"
	"fmt"
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
// programs).
func TestDeadLocalsDifferential(t *testing.T) {
	n := testflags.N(2, 3, 60, 400)
	freed, kept, unsafe := 0, 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 2 + int(seed%2), Thread: gen.Options{
			Globals: 3, MaxLocals: 6, Procs: 3, Stmts: 6, Omit: gen.Recursion}})
		p := testsuite.LowerDialect(t, fmt.Sprintf("dl%d.bp", seed), src, syntax.CProver, "")
		for _, b := range []result.Bound{cs(1), rounds(2), {}} {
			ctx, cancel := context.WithTimeoutCause(context.Background(), 5*time.Second, engine.ErrTimeout)
			q := engine.Query{Bound: b}
			got := testsuite.CheckContext(ctx, t, concprod.New(), p, q)
			want := testsuite.CheckContext(ctx, t, newEngine(t, concprod.Options{KeepDeadLocals: true}), p, q)
			cancel()
			if got.Verdict == result.Unknown || want.Verdict == result.Unknown {
				continue
			}
			if got.Verdict != want.Verdict || got.Bound != want.Bound {
				t.Errorf("seed %d at %s: %s %s, keeping dead locals %s %s\n%s", seed, b, got.Verdict, got.Bound, want.Verdict, want.Bound, src)
			}
			if got.Verdict == result.Unsafe {
				unsafe++
			}
			freed += int(got.Stats.Counters["peak_nodes"])
			kept += int(want.Stats.Counters["peak_nodes"])
		}
	}
	t.Logf("%d programs, %d unsafe answers: peak BDD nodes summed, freed %d, kept %d", n, unsafe, freed, kept)
}
