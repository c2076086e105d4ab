package fixpoint_test

import (
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/fixpoint"
	"boolprog/internal/testsuite"
)

func newEngine(t *testing.T, alg string) func() engine.Engine {
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
// the programs at the width limits (BDDs have no width limit).
func TestConformance(t *testing.T) {
	for _, alg := range []string{"ef", "efopt"} {
		t.Run(alg, func(t *testing.T) {
			testsuite.Conformance(t, testsuite.Config{
				New:         newEngine(t, alg),
				Oracle:      func() engine.Engine { return explicit.New() },
				Root:        "../..",
				DecidesWide: true,
				Random:      100,
			})
		})
	}
}
