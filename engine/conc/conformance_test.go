package conc_test

import (
	"testing"

	"boolprog/engine"
	conceng "boolprog/engine/conc"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
)

// TestConcurrentConformance runs the bounded-concurrent conformance suite
// on conc-eager and conc-lazy, as on every concurrent engine: the
// benchmarks at their first-error bounds (the slow ones in the long
// tier) and random programs against the explicit oracle.
func TestConcurrentConformance(t *testing.T) {
	oracle, ok := engine.Lookup("explicit")
	if !ok {
		t.Fatal("no explicit engine registered")
	}
	for _, lazy := range []bool{false, true} {
		name := "eager"
		if lazy {
			name = "lazy"
		}
		t.Run(name, func(t *testing.T) {
			testsuite.ConcurrentConformance(t, testsuite.ConcurrentConfig{
				New: func(o testsuite.ConcEngineOptions) engine.Engine {
					return &conceng.Engine{Lazy: lazy, Deepen: o.Deepen, MaxThreads: o.MaxThreads}
				},
				Oracle: func() engine.Engine {
					e, err := oracle.New()
					if err != nil {
						t.Fatal(err)
					}
					return e
				},
				Long:   testflags.Long(),
				Random: testsuite.ConcConfig{Options: gen.Options{Omit: gen.Recursion}},
			})
		})
	}
}
