package summary_test

import (
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/summary"
	"boolprog/internal/testsuite"
)

// TestConformance runs the shared conformance suite with the explicit
// engine as the oracle. The summary engine promises shortest traces and
// must decide the programs at the limits (its BDDs have no width limit).
func TestConformance(t *testing.T) {
	testsuite.Conformance(t, testsuite.Config{
		New:         func() engine.Engine { return summary.New(summary.Options{}) },
		Oracle:      func() engine.Engine { return explicit.New() },
		Root:        "../..",
		Shortest:    true,
		DecidesWide: true,
	})
}
