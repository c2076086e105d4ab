package explicit_test

import (
	"boolprog/internal/testsuite"
	"bytes"
	"context"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// check runs the engine with the default limits and replays an unsafe
// verdict's trace.
func check(t testing.TB, p *ir.Program, q engine.Query) *result.Result {
	t.Helper()
	return checkWith(t, p, q, explicit.Options{})
}

// checkWith runs the engine with the given limits through engine.Run and
// replays an unsafe verdict's trace.
func checkWith(t testing.TB, p *ir.Program, q engine.Query, opts explicit.Options) *result.Result {
	t.Helper()
	eng, err := explicit.NewWithOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Run(context.Background(), eng, p, q)
	if strings.HasPrefix(res.Reason, engine.InternalErrorPrefix) {
		t.Fatalf("%s\n%s", res.Reason, res.Debug)
	}
	if res.Engine != explicit.Name {
		t.Errorf("engine %q", res.Engine)
	}
	switch res.Verdict {
	case result.Unsafe:
		if err := interp.Replay(p, res.Trace); err != nil {
			var b bytes.Buffer
			result.WriteTrace(&b, res.Trace, result.Forward)
			t.Fatalf("trace does not replay: %v\n%s", err, b.String())
		}
	default:
		if res.Trace != nil {
			t.Errorf("%s verdict with a trace", res.Verdict)
		}
	}
	return res
}

// TestLimits checks the Unknown answers.
func TestLimits(t *testing.T) {
	big := "decl a, b, c, d, e;\nvoid main() begin assert(a); end\n"
	p := testsuite.Lower(t, "big.bp", big, "")
	res := checkWith(t, p, engine.Query{}, explicit.Options{MaxVars: 4})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "too many variables in scope") {
		t.Errorf("MaxVars 4: %s %q", res.Verdict, res.Reason)
	}
	if res := checkWith(t, p, engine.Query{}, explicit.Options{MaxVars: 5}); res.Verdict != result.Unsafe {
		t.Errorf("MaxVars 5: %s %q", res.Verdict, res.Reason)
	}
	// No error location reachable in the CFG: safe whatever the size.
	safe := "decl a, b, c, d, e;\nvoid f() begin assert(F); end\nvoid main() begin a := b; end\n"
	if res := checkWith(t, testsuite.Lower(t, "safe.bp", safe, ""), engine.Query{}, explicit.Options{MaxVars: 1}); res.Verdict != result.Safe {
		t.Errorf("unreachable error: %s %q", res.Verdict, res.Reason)
	}
	// A cancelled context gives Unknown "timeout".
	loop := "decl a, b, c, d, e, f, g, h, i, j, k, l, m;\nvoid main() begin\n L: a, b, c, d, e, f, g, h, i, j, k, l, m := *, *, *, *, *, *, *, *, *, *, *, *, *; goto L, M;\n M: SLIC_ERROR: skip;\nend\n"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = engine.Run(ctx, explicit.New(), testsuite.Lower(t, "loop.bp", loop, ""), engine.Query{})
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted {
		t.Errorf("cancelled: %s %q", res.Verdict, res.Reason)
	}
	// A query for another target is an internal error.
	if res := engine.Run(context.Background(), explicit.New(), p, engine.Query{Target: "OTHER"}); !strings.HasPrefix(res.Reason, engine.InternalErrorPrefix) {
		t.Errorf("mismatched target accepted: %s %q", res.Verdict, res.Reason)
	}
	// Limits it cannot honour are refused.
	for _, n := range []int{-1, 65, 1000} {
		if _, err := explicit.NewWithOptions(explicit.Options{MaxVars: n}); err == nil {
			t.Errorf("MaxVars %d accepted", n)
		}
	}
}
