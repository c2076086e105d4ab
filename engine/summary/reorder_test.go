package summary_test

import (
	"fmt"
	"testing"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestRandomReorderStress is the random differential test with the BDD
// variable order changed at the start of every BDD operation
// (bdd.ReorderStress: a random block moved, a full sifting every 64
// operations), alone and with a tiny node table: reordering must never
// change a verdict, and traces must still replay (check replays them) and
// be shortest. Seeds 1..20 (10 with -short, 60 with -long, 1500 with
// -full).
func TestRandomReorderStress(t *testing.T) {
	n := testflags.N(10, 20, 60, 1500)
	configs := []struct {
		name string
		opts summary.Options
	}{
		{"stress", summary.Options{Reorder: bdd.ReorderStress}},
		{"stress+gc", summary.Options{Reorder: bdd.ReorderStress, InitialNodes: 64}},
		{"sift", summary.Options{Reorder: bdd.ReorderSift}},
		{"off", summary.Options{Reorder: bdd.ReorderOff}},
	}
	decided := 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		ex := oracle(t, p, engine.Query{})
		if ex.Verdict == result.Unknown {
			continue
		}
		decided++
		// A program whose error sites main cannot reach in the
		// control-flow graph is answered without a search; it is
		// searched all the same (every reachable state), so that the
		// reordering is exercised on it too.
		q := engine.Query{}
		if _, reachable := p.ErrorReachableInCFG(); !reachable {
			q.AllReachable = true
		}
		for i, c := range configs {
			if i > 0 && seed%4 != 0 {
				break // the other configurations on every fourth seed
			}
			res := check(t, p, q, c.opts)
			if res.Verdict != ex.Verdict {
				t.Errorf("seed %d (%s): verdict %s (%s), explicit %s\n%s", seed, c.name, res.Verdict, res.Reason, ex.Verdict, src)
				continue
			}
			if res.Verdict == result.Unsafe && len(res.Trace.Steps) != len(ex.Trace.Steps) {
				t.Errorf("seed %d (%s): %d steps, explicit %d\n%s", seed, c.name, len(res.Trace.Steps), len(ex.Trace.Steps), src)
			}
			if c.opts.Reorder == bdd.ReorderStress && res.Stats.Counters["bdd_reorders"] == 0 {
				t.Errorf("seed %d (%s): no reordering happened", seed, c.name)
			}
		}
	}
	t.Logf("%d programs decided by the explicit engine, each checked under forced reordering", decided)
}
