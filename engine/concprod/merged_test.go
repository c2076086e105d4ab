package concprod_test

import (
	"context"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestMergedDifferential checks the unbounded search without classes
// (runMerged) on random programs where every thread takes macro steps
// (both conventions: Getafix's init and `atomic`, and SATABS' threads
// started by main, with arguments, atomic sections and a thread limit),
// the macro steps taken step by step on odd seeds and by their relations
// on even ones: small programs against the explicit oracle, larger ones
// (atomic stretches and local code, too many states for the oracle)
// against the search by rounds without a last round (runChained); the
// same answers, every trace replayed (-long: 200 programs of each).
func TestMergedDifferential(t *testing.T) {
	n := testflags.N(3, 8, 200, 1000)
	for _, c := range []struct {
		name   string
		thread gen.Options
		oracle bool
	}{
		{"small, against the oracle", gen.Options{Omit: gen.Recursion}, true},
		{"larger, against the search by rounds", gen.Options{Globals: 3, MaxLocals: 4, Procs: 2, Stmts: 8, Omit: gen.Recursion}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			merged, unsafe, compared := 0, 0, 0
			for seed := int64(1); seed <= int64(n); seed++ {
				after, budget := time.Hour, time.Duration(0)
				if seed%2 == 0 {
					after, budget = 0, time.Minute
				}
				restore := concprod.SetMacroRel(after, budget)
				src, p := randomProgram(t, seed, c.thread)
				ctx, cancel := context.WithTimeoutCause(context.Background(), 20*time.Second, engine.ErrTimeout)
				got := testsuite.CheckContext(ctx, t, concprod.New(), p, engine.Query{})
				var want *result.Result
				if c.oracle {
					want = testsuite.CheckContext(ctx, t, oracle(t)(), p, engine.Query{})
				} else {
					unmerge := concprod.SetMerge(false)
					want = testsuite.CheckContext(ctx, t, concprod.New(), p, engine.Query{})
					unmerge()
					if want.Stats.Counters["merged_classes"] != 0 {
						t.Fatalf("seed %d: merged with merging off", seed)
					}
				}
				cancel()
				restore()
				if got.Stats.Counters["merged_classes"] == 1 {
					merged++
				}
				if got.Verdict == result.Unknown || want.Verdict == result.Unknown {
					continue
				}
				compared++
				if got.Verdict != want.Verdict {
					t.Errorf("seed %d: merged %s, want %s\n%s", seed, got.Verdict, want.Verdict, src)
				}
				if got.Verdict == result.Unsafe {
					unsafe++
				}
			}
			t.Logf("%d programs, %d searched without classes, %d compared, %d unsafe", n, merged, compared, unsafe)
			if merged < n/2 || compared < n/2 || (unsafe == 0 && n >= 8) {
				t.Errorf("too little compared: %d of %d programs searched without classes, %d compared, %d unsafe", merged, n, compared, unsafe)
			}
		})
	}
}
