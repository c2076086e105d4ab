package pushdown_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/pushdown"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestLimits checks that the node limit and the end of the context give
// UNKNOWN with the reason (or, once the error is established, FAILED with
// a cut trace), for both engines, with and without FWPDS, and that
// ErrorProjection reports them as errors.
func TestLimits(t *testing.T) {
	p := testsuite.Lower(t, "t50.bp", gen.BebopTemplate(50), "reach")
	for _, dir := range directions {
		for _, o := range []pushdown.Options{{}, {FWPDS: true}} {
			eng := pushdown.NewWithOptions(dir, o)
			res := engine.Run(context.Background(), eng, p, engine.Query{MaxNodes: 64})
			if res.Verdict == result.Safe || (res.Verdict == result.Unsafe && !res.TraceCut) {
				t.Errorf("%s %+v: %s with a limit of 64 nodes", eng.Name(), o, res.Verdict)
			}
			if !strings.Contains(res.Reason, "BDD node limit reached (64 nodes)") {
				t.Errorf("%s %+v: reason %q", eng.Name(), o, res.Reason)
			}
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(engine.ErrInterrupted)
			if res := engine.Run(ctx, eng, p, engine.Query{}); res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted {
				t.Errorf("%s %+v: %s (%s) when interrupted", eng.Name(), o, res.Verdict, res.Reason)
			}
			ctx, cancel2 := context.WithTimeoutCause(context.Background(), time.Millisecond, engine.ErrTimeout)
			res = engine.Run(ctx, eng, p, engine.Query{})
			cancel2()
			if res.Verdict == result.Safe || (res.Verdict == result.Unknown && res.Reason != engine.ReasonTimeout) {
				t.Errorf("%s %+v: %s (%s) with a 1ms time limit", eng.Name(), o, res.Verdict, res.Reason)
			}
		}
	}
	if _, err := pushdown.ErrorProjection(context.Background(), p, 64, 1); !errors.Is(err, bdd.ErrNodeLimit) {
		t.Errorf("ErrorProjection with 64 nodes: %v", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(engine.ErrInterrupted)
	if _, err := pushdown.ErrorProjection(ctx, p, 0, 1); !errors.Is(err, engine.ErrInterrupted) {
		t.Errorf("ErrorProjection interrupted: %v", err)
	}
}
