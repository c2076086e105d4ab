package interp_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/interp"
)

var procName = regexp.MustCompile(`\bf(\d+)\b`)

// randomConcurrent makes a program in the Getafix convention from two random
// programs: their mains become thread0 and thread1 (the second's other
// procedures renamed), over the same globals, of which g0 is renamed atomic,
// so that the random assignments to it open and close atomic stretches; the
// first program's error sites are removed, and init sets every global to F.
func randomConcurrent(seed int64) string {
	a := gen.Random(seed, gen.Default())
	b := gen.Random(seed+100000, gen.Default())
	a = strings.Replace(a, "void main()", "void thread0()", 1)
	// Only thread1 has errors: those that need thread0's writes to the
	// globals make traces with context switches.
	a = strings.NewReplacer("assert(", "assume(", "SLIC_ERROR:", "NO_ERROR:").Replace(a)
	b = strings.Replace(b, "void main()", "void thread1()", 1)
	b = procName.ReplaceAllString(b, "h$1")
	b = strings.Replace(b, "decl g0, g1, g2;", "", 1)
	init := "\nvoid init() begin g0, g1, g2 := F, F, F; end\n"
	return strings.ReplaceAll(a+b+init, "g0", "atomic")
}

// TestRandomConcurrentReplay replays the bounded brute-force search's error
// traces of random two-thread programs (with Getafix's atomic global), as
// TestRandomReplay does for sequential ones.
func TestRandomConcurrentReplay(t *testing.T) {
	// The first trace with a context switch is seed 35's.
	seeds := testflags.N(40, 50, 150, 150)
	found, switched := 0, 0
	for seed := range int64(seeds) {
		src := randomConcurrent(seed)
		p := testsuite.Lower(t, fmt.Sprintf("c%d.bp", seed), src, "")
		if !p.Concurrent || len(p.Threads) != 2 {
			t.Fatalf("seed %d: not two threads in the Getafix convention", seed)
		}
		inits, err := interp.Initials(p)
		if err != nil {
			continue // too many variables at the start for brute force
		}
		tr := searchFrom(t, p, inits, 3, 3, 2, 5000)
		if tr == nil {
			continue
		}
		found++
		if hasSwitch(tr) {
			switched++
		}
		if err := interp.Replay(p, tr); err != nil {
			t.Fatalf("seed %d: Replay: %v\n%s\n%s", seed, err, src, traceString(tr))
		}
		if err := interp.Replay(p, thinned(tr, uint64(seed))); err != nil && !errors.Is(err, interp.ErrTooManyChoices) {
			t.Fatalf("seed %d: Replay with values left out: %v\n%s\n%s", seed, err, src, traceString(tr))
		}
	}
	t.Logf("%d of %d random concurrent programs have an error trace within the bounds, %d with a context switch", found, seeds, switched)
	if switched == 0 {
		t.Error("no trace with a context switch")
	}
}
