package explicit_test

import (
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/internal/testsuite"
)

// TestConformance runs the shared conformance suite. The explicit engine is
// the oracle, so it has none; its random programs are also compared with a
// brute-force search (TestRandomPrograms). It cannot represent the
// programs at the limits and must answer them Unknown or correctly.
func TestConformance(t *testing.T) {
	testsuite.Conformance(t, testsuite.Config{
		New:      func() engine.Engine { return explicit.New() },
		Root:     "../..",
		Shortest: true,
	})
}
