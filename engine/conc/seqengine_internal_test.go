package conc

import (
	"testing"

	"boolprog/engine/summary"
)

// TestSeqEngineDefaults: the summary engine conc builds gets the
// declaration order from both engines and, from conc-lazy only, the
// callees-first worklist (LazyWorklist); the user's own flags win.
func TestSeqEngineDefaults(t *testing.T) {
	for _, c := range []struct {
		lazy     bool
		spec     string
		worklist summary.Worklist
	}{
		{false, "summary", summary.WorklistAuto},
		{true, "summary", summary.WorklistCallees},
		{true, "", summary.WorklistCallees},
		{true, "summary --worklist alternate", summary.WorklistAlternate},
		{false, "summary --worklist callees", summary.WorklistCallees},
	} {
		e := &Engine{Lazy: c.lazy, SeqEngine: c.spec}
		seq, err := e.seqEngine()
		if err != nil {
			t.Fatalf("%s --seq-engine %q: %v", e.Name(), c.spec, err)
		}
		s, ok := seq.(*summary.Engine)
		if !ok {
			t.Fatalf("%s --seq-engine %q: a %T", e.Name(), c.spec, seq)
		}
		o := s.Options()
		if o.Worklist != c.worklist || !o.DeclarationOrder {
			t.Errorf("%s --seq-engine %q: worklist %v, declaration order %v; want %v and true", e.Name(), c.spec, o.Worklist, o.DeclarationOrder, c.worklist)
		}
	}
}
