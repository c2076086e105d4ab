package gen

import (
	"testing"

	"boolprog/internal/testflags"
)

// hasErrorSite reports whether prog contains an assert or a SLIC_ERROR label.
func hasErrorSite(prog *program) bool {
	found := false
	var walk func(ss []*st)
	walk = func(ss []*st) {
		for _, s := range ss {
			if s.kind == sAssert {
				found = true
			}
			for _, l := range s.labels {
				if l == "SLIC_ERROR" {
					found = true
				}
			}
			walk(s.then)
			walk(s.els)
			walk(s.body)
		}
	}
	for _, p := range prog.procs {
		walk(p.body)
	}
	return found
}

// TestErrorMix measures, over the default options, how many programs carry
// an error site and in how many a random simulation reaches an error (a lower
// bound on the programs whose error is reachable), and keeps both within the
// range the generator is tuned for.
func TestErrorMix(t *testing.T) {
	n := testflags.N(100, 200, 1000, 1000)
	sites, found := 0, 0
	for seed := int64(0); seed < int64(n); seed++ {
		prog := build(seed, Options{})
		if hasErrorSite(prog) {
			sites++
		}
		if simulate(prog, uint64(seed), 300) {
			found++
		}
	}
	if sites < n*8/10 {
		t.Errorf("only %d of %d programs have an error site", sites, n)
	}
	if found < n*3/10 || found > n*7/10 {
		t.Errorf("random simulation found an error in %d of %d programs, want 30%% to 70%%", found, n)
	}
	t.Logf("%d programs: %.1f%% with an error site, %.1f%% with an error found by random simulation",
		n, 100*float64(sites)/float64(n), 100*float64(found)/float64(n))
}
