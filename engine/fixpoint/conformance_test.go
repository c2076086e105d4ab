package fixpoint_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/fixpoint"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

func newEngine(t testing.TB, alg string) func() engine.Engine {
	return func() engine.Engine {
		e, err := fixpoint.New(alg, fixpoint.Options{Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// TestConformance runs the shared conformance suite on ef and efopt, with
// the explicit engine as the oracle. Their traces are not shortest (a
// round's pairs are explained by any earlier pairs), and both must decide
// the programs at the width limits (BDDs have no width limit). The suite's
// random programs, whose part at the limits runs into its 20 s timeouts,
// run with -full; TestRandomPrograms covers ordinary random programs by
// default.
func TestConformance(t *testing.T) {
	random := -1
	if testflags.Full() {
		random = 200
	}
	for _, alg := range []string{"ef", "efopt"} {
		t.Run(alg, func(t *testing.T) {
			testsuite.Conformance(t, testsuite.Config{
				New:         newEngine(t, alg),
				Oracle:      func() engine.Engine { return explicit.New() },
				Root:        "../..",
				DecidesWide: true,
				Random:      random,
			})
		})
	}
}

// TestRandomPrograms compares ef and efopt with the explicit engine on
// generated programs (seeds 1..30; 1..10 with -short, 1..100 with -long,
// 1..1000 with -full or
// BOOLPROG_LONG=full): the same verdict, and for unsafe programs a trace
// that interp.Replay accepts (testsuite.Check replays it).
func TestRandomPrograms(t *testing.T) {
	n := testflags.N(10, 30, 100, 1000)
	engines := map[string]func() engine.Engine{"ef": newEngine(t, "ef"), "efopt": newEngine(t, "efopt")}
	var unsafe, safe, skipped int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		ex := engine.Run(context.Background(), explicit.New(), p, engine.Query{})
		if ex.Verdict == result.Unknown {
			skipped++
			continue
		}
		for _, name := range []string{"ef", "efopt"} {
			failed := t.Failed()
			res := testsuite.Check(t, engines[name](), p, engine.Query{})
			if !failed && t.Failed() {
				t.Logf("seed %d, %s:\n%s", seed, name, src)
			}
			if res.Verdict != ex.Verdict {
				t.Errorf("seed %d, %s: %s %s, explicit %s\n%s", seed, name, res.Verdict, res.Reason, ex.Verdict, src)
			}
		}
		if ex.Verdict == result.Unsafe {
			unsafe++
		} else {
			safe++
		}
	}
	t.Logf("%d programs: %d unsafe, %d safe, %d too big for the explicit engine", n, unsafe, safe, skipped)
	if unsafe == 0 || safe == 0 {
		t.Errorf("the generator should produce both safe and unsafe programs")
	}
}
