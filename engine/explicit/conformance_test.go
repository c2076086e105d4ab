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
// programs at the limits and must answer them Unknown or correctly. It
// decides the concurrent programs too, by exhaustive exploration of their
// interleavings; Threads3 and Threads5 create threads in a loop and fail
// with 3 and 5 threads, so the thread limit is 5.
func TestConformance(t *testing.T) {
	testsuite.Conformance(t, testsuite.Config{
		New: func() engine.Engine {
			e, err := explicit.NewWithOptions(explicit.Options{MaxThreads: 5})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		Root:       "../..",
		Shortest:   true,
		Concurrent: true,
	})
}
