package cpa_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/engine/explicit"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// oracle runs the explicit engine.
func oracle(t testing.TB) engine.Engine {
	ex, err := explicit.NewWithOptions(explicit.Options{MaxVars: 24})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestRandomPrograms compares configurations with the explicit engine on
// generated programs (seeds 1..30; 1..10 with -short, 1..100 with -long,
// 1..1000 with -full or
// BOOLPROG_LONG=full). The exact configurations (model-checking, cegar, bdd)
// must give the oracle's verdict, and so must the call-stack analysis
// without a depth bound on programs without recursion; data-flow must
// never say safe of an unsafe program, and its unsafe answers must be
// right (it says unknown when the path it finds is not an execution: a
// false alarm, or a real error reached along a joined path). Every trace
// replays (testsuite.Check).
func TestRandomPrograms(t *testing.T) {
	n := testflags.N(10, 30, 100, 1000)
	configs := []string{"model-checking", "cegar", "bdd", "data-flow", "callstack"}
	type tally struct{ agree, alarms, unconfirmed, refinements int }
	tallies := make(map[string]*tally)
	for _, c := range configs {
		tallies[c] = &tally{}
	}
	var safe, unsafe int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		ex := engine.Run(context.Background(), oracle(t), p, engine.Query{})
		if ex.Verdict == result.Unknown {
			continue
		}
		if ex.Verdict == result.Safe {
			safe++
		} else {
			unsafe++
		}
		// Call strings grow with recursion (the named callstack
		// configuration bounds the depth and is then often Unknown):
		// the call-stack analysis without a bound runs on a program of
		// the same seed without recursion, where it is exact.
		srcNR := gen.Random(seed, gen.Options{Omit: gen.Recursion})
		pNR := testsuite.Lower(t, fmt.Sprintf("seed%d-norec.bp", seed), srcNR, "")
		exNR := engine.Run(context.Background(), oracle(t), pNR, engine.Query{})
		for _, name := range configs {
			p, ex, src := p, ex, src
			eng := cpaengine.NewNamed(name)
			if name == "callstack" {
				if exNR.Verdict == result.Unknown {
					continue
				}
				p, ex, src = pNR, exNR, srcNR
				eng = cpaengine.New(unboundedCallstack(t))
			}
			res := testsuite.Check(t, eng, p, engine.Query{})
			tl := tallies[name]
			tl.refinements += int(res.Stats.Counters["refinements"])
			switch {
			case res.Verdict == ex.Verdict:
				tl.agree++
			case name == "data-flow" && res.Verdict == result.Unknown && ex.Verdict == result.Safe:
				tl.alarms++ // a false alarm, refuted by the replay
			case name == "data-flow" && res.Verdict == result.Unknown:
				tl.unconfirmed++ // a real error, but the joined path is not an execution
			default:
				t.Errorf("seed %d: %s says %s (%s), explicit %s\n%s", seed, name, res.Verdict, res.Reason, ex.Verdict, src)
			}
		}
	}
	t.Logf("%d programs compared: %d safe, %d unsafe", safe+unsafe, safe, unsafe)
	for _, name := range configs {
		tl := tallies[name]
		t.Logf("%-15s agree %d, false alarms %d, unconfirmed errors %d, refinements %d", name, tl.agree, tl.alarms, tl.unconfirmed, tl.refinements)
	}
}

// unboundedCallstack is the callstack configuration without a depth bound.
func unboundedCallstack(t testing.TB) *cpaengine.Config {
	c, err := cpaengine.ParseConfig("callstack-unbounded", `
analyses = location, callstack, explicitval
merge = sep
stop = sep
waitlist = dfs
`)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
