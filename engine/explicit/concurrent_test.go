package explicit_test

import (
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestConcurrentSmallestBound checks the layered search on random
// concurrent programs: without a bound, an error's answer names the
// smallest bound at which it appears (the trace has exactly that many
// switches, or fits that many rounds); at that bound the error is found
// again, one below it the answer is Safe; and a program safe in every
// interleaving is safe at every bound.
func TestConcurrentSmallestBound(t *testing.T) {
	n := testflags.N(8, 12, 40, 40)
	eng := func() engine.Engine {
		e, err := explicit.NewWithOptions(explicit.Options{MaxStates: 20000})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	byK := map[int]int{}
	proofs := 0
	for seed := range int64(n) {
		src := gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 2 + int(seed%2)})
		name := fmt.Sprintf("conc%d.bp", seed)
		p := testsuite.Lower(t, name, src, "")
		for _, kind := range []result.BoundKind{result.ContextSwitches, result.Rounds} {
			least := 0 // the smallest bound of the kind: 0 switches, 1 round
			if kind == result.Rounds {
				least = 1
			}
			at := func(k int) *result.Result {
				return testsuite.Check(t, eng(), p, engine.Query{Bound: result.Bound{Kind: kind, K: k}})
			}
			var free *result.Result
			if kind == result.ContextSwitches {
				free = testsuite.Check(t, eng(), p, engine.Query{})
			} else {
				// Rounds: search up to 4 rounds, the smallest first.
				free = at(4)
			}
			switch free.Verdict {
			case result.Unknown:
				continue
			case result.Safe:
				if kind == result.ContextSwitches {
					if free.Bound.Kind != result.Unbounded {
						t.Fatalf("%s: an unbounded query answered with a bound %s", name, free.Bound)
					}
					proofs++
				}
				for k := least; k <= 2; k++ {
					if r := at(k); r.Verdict == result.Unsafe {
						t.Fatalf("%s: safe without bound (%s), unsafe at %s\n%s", name, kind, r.Bound, src)
					}
				}
				continue
			}
			k := free.Bound.K
			if free.Bound.Kind != kind {
				t.Fatalf("%s: the answer's bound %s is not of kind %s", name, free.Bound, kind)
			}
			if err := testsuite.TraceFits(free.Trace, free.Bound); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, testsuite.TraceText(free.Trace))
			}
			if kind == result.ContextSwitches && free.Trace.Switches() != k {
				t.Fatalf("%s: smallest bound %d, but the trace has %d switches", name, k, free.Trace.Switches())
			}
			byK[k]++
			if r := at(k); r.Verdict != result.Unsafe || r.Bound != free.Bound {
				t.Fatalf("%s: the error at %s is not found at that bound: %s %s", name, free.Bound, r.Verdict, r.Bound)
			}
			if k > least {
				if r := at(k - 1); r.Verdict != result.Safe {
					t.Fatalf("%s: %s, smallest bound %d, but %s at %d\n%s\n%s", name, kind, k, r.Verdict, k-1, src, testsuite.TraceText(r.Trace))
				}
			}
		}
	}
	t.Logf("smallest bounds of the errors found: %v; %d unbounded proofs", byK, proofs)
	if byK[1]+byK[2]+byK[3] == 0 || proofs == 0 {
		t.Errorf("no error that needs a switch, or no proof: the test lost its power")
	}
}

// TestConcurrentDifferentialHarness runs the concurrent differential
// harness with the explicit engine on both sides (with different state
// budgets): it is the harness's own smoke test (every trace replayed and
// fitted to its bound), not a check of the engine against an independent
// one (the concurrent engines run it against this oracle).
func TestConcurrentDifferentialHarness(t *testing.T) {
	withBudget := func(n int) func() engine.Engine {
		return func() engine.Engine {
			e, err := explicit.NewWithOptions(explicit.Options{MaxStates: n})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
	}
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      withBudget(40000),
		Oracle:   withBudget(20000),
		Programs: 10,
		Seed:     1000,
	})
	if st.Agree == 0 {
		t.Error("no check decided by both")
	}
}
