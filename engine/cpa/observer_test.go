package cpa_test

import (
	"strings"
	"testing"

	core "boolprog/cpa"
	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/result"
)

// TestObserverExample checks the locking rule of examples/locking.spec on
// the examples: the violation in locking.bp comes with a trace that
// interp.Replay accepts on the program instrumented with the observer (and
// the instrumented program fails under the plain model-checking
// configuration too, at the observer's failure location); locking-ok.bp
// is proved, although the lock's state is correlated with a local.
func TestObserverExample(t *testing.T) {
	cfg, err := cpaengine.LoadConfig("../../examples/locking.cfg")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("violation", func(t *testing.T) {
		p := testsuite.LowerFile(t, "../../examples/locking.bp", "")
		eng := cpaengine.New(cfg)
		res := testsuite.Check(t, eng, p, engine.Query{})
		if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "property locking violated: lock acquired twice") {
			t.Fatalf("%s (%s), want the violation", res.Verdict, res.Reason)
		}
		if eng.Observed == nil {
			t.Fatal("no observed trace")
		}
		inst := eng.Observed.Inst.Prog
		if err := interp.Replay(inst, eng.Observed.Trace); err != nil {
			t.Fatalf("the trace does not replay on the instrumented program: %v\n%s", err, testsuite.TraceText(eng.Observed.Trace))
		}
		pr := result.PropertyOf(inst, eng.Observed.Trace)
		if pr == nil || !strings.Contains(pr.Text, "lock acquired twice") {
			t.Errorf("the trace reaches %+v", pr)
		}
		t.Logf("reason: %s\n%s", res.Reason, testsuite.TraceText(eng.Observed.Trace))
		// The instrumented program is an ordinary program: every
		// configuration finds its assertion failure.
		mc := testsuite.Check(t, cpaengine.NewNamed("model-checking"), inst, engine.Query{})
		if mc.Verdict != result.Unsafe {
			t.Errorf("instrumented program: %s, want unsafe", mc.Verdict)
		}
	})
	t.Run("kept", func(t *testing.T) {
		p := testsuite.LowerFile(t, "../../examples/locking-ok.bp", "")
		res := testsuite.Check(t, cpaengine.New(cfg), p, engine.Query{})
		if res.Verdict != result.Safe {
			t.Errorf("%s (%s), want safe", res.Verdict, res.Reason)
		}
		// With merge-join, the observer's states still never merge (they
		// must agree), and the explicit values keep fast apart: safe.
		join := *cfg
		join.Merge = core.MergeJoin
		res = testsuite.Check(t, cpaengine.New(&join), p, engine.Query{})
		t.Logf("merge-join: %s %s", res.Verdict, res.Reason)
	})
}
