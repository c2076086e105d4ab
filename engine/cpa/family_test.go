package cpa_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boolprog/cpa/cegar"
	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/engine/summary"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// familyEngines are the engines compared on cegar.Family.
var familyEngines = []struct {
	name string
	new  func() engine.Engine
}{
	{"summary", func() engine.Engine { return summary.New(summary.Options{}) }},
	{"cpa cegar", func() engine.Engine { return cpaengine.NewNamed("cegar") }},
	{"cpa bdd", func() engine.Engine { return cpaengine.NewNamed("bdd") }},
	{"cpa model-checking", func() engine.Engine { return cpaengine.NewNamed("model-checking") }},
}

// TestFamily checks the verdicts on small members of cegar.Family, and
// that CEGAR tracks only the core (a and b) to prove the safe one.
func TestFamily(t *testing.T) {
	for _, unsafe := range []bool{false, true} {
		p := testsuite.Lower(t, "family.bp", cegar.Family(12, unsafe), "")
		want := result.Safe
		if unsafe {
			want = result.Unsafe
		}
		for _, e := range familyEngines[:3] {
			res := testsuite.Check(t, e.new(), p, engine.Query{})
			if res.Verdict != want {
				t.Errorf("%s, unsafe=%v: %s (%s), want %s", e.name, unsafe, res.Verdict, res.Reason, want)
			}
			// The safe member needs a and b; the unsafe one fails with a
			// alone tracked (b is then ⊤, and a := b may make a false).
			if e.name == "cpa cegar" && !unsafe && res.Stats.Counters["tracked_variables"] != 2 {
				t.Errorf("cegar tracks %d variables, want 2 (a and b)", res.Stats.Counters["tracked_variables"])
			}
		}
	}
}

// TestFamilyTable prints the times of the engines on cegar.Family for N =
// 10 … 1000 (only with -full or BOOLPROG_LONG=full: it is a measurement,
// run once for the table). Each run has a time limit of familyLimit;
// an engine that does not return within the limit and a grace period is
// left behind (its goroutine keeps running until the test ends) and not
// run on larger N.
func TestFamilyTable(t *testing.T) {
	if !testflags.Full() {
		t.Skip("a measurement: run with -full")
	}
	const familyLimit = 30 * time.Second
	sizes := []int{10, 30, 100, 300, 1000}
	for _, unsafe := range []bool{false, true} {
		t.Logf("family unsafe=%v (limit %v per run)", unsafe, familyLimit)
		header := fmt.Sprintf("%-20s", "N")
		for _, n := range sizes {
			header += fmt.Sprintf("%16d", n)
		}
		t.Log(header)
		for _, e := range familyEngines {
			line := fmt.Sprintf("%-20s", e.name)
			gaveUp := false
			for _, n := range sizes {
				if gaveUp {
					line += fmt.Sprintf("%16s", "-")
					continue
				}
				p := testsuite.Lower(t, "family.bp", cegar.Family(n, unsafe), "")
				ctx, cancel := context.WithTimeout(context.Background(), familyLimit)
				start := time.Now()
				done := make(chan *result.Result, 1)
				go func() { done <- engine.Run(ctx, e.new(), p, engine.Query{}) }()
				var cell string
				select {
				case res := <-done:
					d := time.Since(start)
					switch {
					case res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout:
						cell, gaveUp = fmt.Sprintf(">%v", familyLimit), true
					case res.Verdict == result.Unknown:
						cell, gaveUp = "unknown", true
					default:
						cell = fmt.Sprintf("%.3fs", d.Seconds())
						if res.Verdict == result.Unsafe && !unsafe || res.Verdict == result.Safe && unsafe {
							t.Errorf("%s N=%d: %s", e.name, n, res.Verdict)
						}
						if c := res.Stats.Counters["tracked_variables"]; c > 0 {
							cell = fmt.Sprintf("%s (%d)", cell, c)
						}
					}
				case <-time.After(familyLimit + 10*time.Second):
					cell, gaveUp = "no stop", true
				}
				cancel()
				line += fmt.Sprintf("%16s", cell)
			}
			t.Log(line)
		}
	}
}

// BenchmarkFamily runs the engines on cegar.Family (safe) with N = 100 and
// 1000.
func BenchmarkFamily(b *testing.B) {
	for _, n := range []int{100, 1000} {
		p := testsuite.Lower(b, "family.bp", cegar.Family(n, false), "")
		for _, e := range familyEngines[:3] {
			b.Run(fmt.Sprintf("%s/N=%d", e.name, n), func(b *testing.B) {
				for range b.N {
					res := engine.Run(context.Background(), e.new(), p, engine.Query{})
					if res.Verdict != result.Safe {
						b.Fatalf("%s: %s", res.Verdict, res.Reason)
					}
				}
			})
		}
	}
}
