package interp_test

import (
	"errors"
	"fmt"
	"testing"

	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/interp"
)

// TestRandomReplay replays the brute-force search's error traces of random
// programs (recursion, returns, enforce, constrain, dead, goto): Replay,
// which takes the values a step chooses from the later steps, must accept
// every trace the unguided search finds, also with values left out (then
// it enumerates them), or say that too many are left out.
func TestRandomReplay(t *testing.T) {
	seeds := testflags.N(40, 60, 150, 150)
	found := 0
	for seed := range int64(seeds) {
		src := gen.Random(seed, gen.Default())
		p := testsuite.Lower(t, fmt.Sprintf("r%d.bp", seed), src, "")
		tr := searchCapped(t, p, 4, 5000)
		if tr == nil {
			continue
		}
		found++
		if err := interp.Replay(p, tr); err != nil {
			t.Fatalf("seed %d: Replay: %v\n%s\n%s", seed, err, src, traceString(tr))
		}
		thin := thinned(tr, uint64(seed))
		if err := interp.Replay(p, thin); err != nil && !errors.Is(err, interp.ErrTooManyChoices) {
			t.Fatalf("seed %d: Replay with values left out: %v\n%s\n%s", seed, err, src, traceString(thin))
		}
	}
	t.Logf("%d of %d random programs have an error trace within the bounds", found, seeds)
	if found < seeds/10 {
		t.Errorf("only %d of %d random programs have an error trace", found, seeds)
	}
}
