package explicit_test

import (
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
)

// TestConcurrentConformance runs the bounded-concurrent conformance suite
// on the interleaving oracle itself (the benchmarks at their first-error
// bounds; no random programs, it is their oracle). Its layered search
// always reports the smallest bound, so it ignores Deepen.
func TestConcurrentConformance(t *testing.T) {
	testsuite.ConcurrentConformance(t, testsuite.ConcurrentConfig{
		New: func(o testsuite.ConcEngineOptions) engine.Engine {
			e, err := explicit.NewWithOptions(explicit.Options{MaxThreads: o.MaxThreads})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		Long: testflags.Full(),
	})
}
