package pushdown_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/pushdown"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// long enables the long runs: the differential run of 1,000 random
// programs and the conformance suite's random programs at the width limits
// (63 and 64 globals, 64 returned values), on which these engines are slow
// (see the package doc); so does the environment variable BOOLPROG_LONG=1.

var directions = []pushdown.Direction{pushdown.Forward, pushdown.Backward}

// TestConformance runs the shared conformance suite on both engines: the
// golden satabs-boppo verdicts, Figure 1, the limit cases and the dialect
// programs (and, with -full, its random programs against the oracle;
// TestRandomPrograms does that by default). Their traces are not shortest.
func TestConformance(t *testing.T) {
	random := -1
	if testflags.Full() {
		random = 0
	}
	for _, dir := range directions {
		t.Run(pushdown.New(dir).Name(), func(t *testing.T) {
			testsuite.Conformance(t, testsuite.Config{
				New:         func() engine.Engine { return pushdown.New(dir) },
				Oracle:      func() engine.Engine { return explicit.New() },
				Root:        "../..",
				DecidesWide: true,
				Random:      random,
			})
		})
	}
}

// TestRandomPrograms compares both engines with the explicit engine on
// generated programs (seeds 1..40; 1..10 with -short, 1..150 with -long,
// 1..1000 with -full): the same verdict,
// and for unsafe programs a trace that interp.Replay accepts (testsuite.Check
// replays it). Every third seed also runs them with FWPDS.
func TestRandomPrograms(t *testing.T) {
	n := testflags.N(10, 40, 150, 1000)
	var unsafe, safe, skipped int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		ex := engine.Run(context.Background(), explicit.New(), p, engine.Query{})
		if ex.Verdict == result.Unknown {
			skipped++
			continue
		}
		for _, dir := range directions {
			opts := []pushdown.Options{{}}
			if seed%3 == 0 {
				opts = append(opts, pushdown.Options{FWPDS: true})
			}
			for _, o := range opts {
				res := testsuite.Check(t, pushdown.NewWithOptions(dir, o), p, engine.Query{})
				if res.Verdict != ex.Verdict {
					t.Errorf("seed %d: %s (%+v) says %s (%s), explicit %s\n%s", seed, res.Engine, o, res.Verdict, res.Reason, ex.Verdict, src)
				}
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
