package observer_test

import (
	"context"
	"testing"

	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/result"
)

// TestExplain checks the notes on a trace of the product: the initial
// state, each event's transition (a guarded one included) and the
// violation, the same whether the automaton's bits are shown (read from
// the values) or not (the transitions taken from the specification and
// the guards' values); without the bits the trace still replays, and
// Violation names the call at line 9.
func TestExplain(t *testing.T) {
	spec, err := observer.Parse("irq.spec", `property irq
states off on
on call lock when held: on -> error "lock while held"
on call lock: off -> on
on call lock: on -> on
`)
	if err != nil {
		t.Fatal(err)
	}
	src := "decl held;\nvoid lock() begin skip; end\nvoid main()\nbegin\n  held := F;\n  lock();\n  lock();\n  held := T;\n  lock();\nend\n"
	inst, err := observer.Instrument(spec, testsuite.Lower(t, "irq.bp", src, ""))
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Run(context.Background(), explicit.New(), inst.Prog, engine.Query{})
	if res.Verdict != result.Unsafe {
		t.Fatalf("%s (%s), want unsafe", res.Verdict, res.Reason)
	}
	want := []string{"irq: starts in off", "irq: off -> on", "irq: stays in on", "irq: on -> error"}
	notes := func(tr *result.Trace) []string {
		var out []string
		for _, s := range tr.Steps {
			if s.Note != "" {
				out = append(out, s.Note)
			}
		}
		return out
	}
	shown := inst.Explain(res.Trace, true)
	hidden := inst.Explain(res.Trace, false)
	again := inst.Explain(hidden, false) // no bits to read: the transitions decide
	for name, tr := range map[string]*result.Trace{"bits shown": shown, "bits hidden": hidden, "explained again": again} {
		if got := notes(tr); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
			t.Errorf("%s: notes %q, want %q", name, got, want)
		}
		if err := interp.Replay(inst.Prog, tr); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, ok := hidden.Steps[0].Lookup("irq_q0"); ok {
		t.Errorf("the bits are shown")
	}
	if pr := inst.Violation(res.Trace); pr == nil || pr.Line != 9 || pr.Text != "lock()" || pr.Observer.State != "on" || pr.Observer.SpecLine != 3 {
		t.Errorf("violation %+v", pr)
	}
}
