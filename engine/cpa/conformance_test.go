package cpa_test

import (
	"testing"

	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/engine/explicit"
	"boolprog/internal/testsuite"
)

// TestConformance runs the shared conformance suite on the sound and
// complete configurations, with the explicit engine as the oracle. They
// do not promise shortest traces.
func TestConformance(t *testing.T) {
	for _, name := range []string{"model-checking", "cegar"} {
		t.Run(name, func(t *testing.T) {
			testsuite.Conformance(t, testsuite.Config{
				New:    func() engine.Engine { return cpaengine.NewNamed(name) },
				Oracle: func() engine.Engine { return explicit.New() },
				Root:   "../..",
			})
		})
	}
}
