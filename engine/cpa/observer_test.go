package cpa_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	core "boolprog/cpa"
	"boolprog/cpa/observer"
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
		// With merge-join or merge-agree, the observer's states never
		// merge (they must agree), so the explicit values joined at each
		// location stay apart where the lock's state differs, and the
		// program is still proved with fewer states.
		for _, m := range []core.MergeOp{core.MergeJoin, core.MergeAgree} {
			c := *cfg
			c.Merge = m
			res := testsuite.Check(t, cpaengine.New(&c), p, engine.Query{})
			if res.Verdict != result.Safe {
				t.Errorf("merge %d: %s (%s), want safe", m, res.Verdict, res.Reason)
			}
		}
	})
}

// TestObserverStrengthening checks guarded transitions: the explicit
// values decide the guard by strengthening, so the program that locks
// twice only with interrupts off is proved; composed with reaching
// definitions instead (which know no values) the guard cannot be decided,
// the observer reaches its error along a path that no execution follows,
// and the answer is Unknown.
func TestObserverStrengthening(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "irq.spec")
	if err := os.WriteFile(spec, []byte(`property irq
states unlocked locked
on call lock when irq: locked -> error "lock with interrupts on"
on call lock: unlocked -> locked
on call lock: locked -> locked
`), 0o666); err != nil {
		t.Fatal(err)
	}
	prog := func(second string) string {
		return "decl irq;\nvoid lock() begin skip; end\nvoid main()\nbegin\n  irq := F;\n  lock();\n  irq := " + second + ";\n  lock();\nend\n"
	}
	tests := []struct {
		data, second string
		want         result.Verdict
		reason       string
	}{
		{"explicitval", "F", result.Safe, ""},
		{"explicitval", "T", result.Unknown, "property irq violated: lock with interrupts on"},
		{"reachdef", "F", result.Unknown, "possible false alarm"},
		{"reachdef", "T", result.Unknown, "property irq violated"},
	}
	for _, tc := range tests {
		c, err := cpaengine.ParseConfig("irq.cfg", "analyses = location, summary, "+tc.data+", observer\nobserver.spec = "+spec+"\n")
		if err != nil {
			t.Fatal(err)
		}
		p := testsuite.Lower(t, "irq.bp", prog(tc.second), "")
		eng := cpaengine.New(c)
		res := testsuite.Check(t, eng, p, engine.Query{})
		if res.Verdict != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%s, irq := %s: %s (%s), want %s %q", tc.data, tc.second, res.Verdict, res.Reason, tc.want, tc.reason)
		}
		if eng.Observed != nil {
			if err := interp.Replay(eng.Observed.Inst.Prog, eng.Observed.Trace); err != nil {
				t.Errorf("%s: %v", tc.data, err)
			}
		}
	}
}

// TestCheckProduct checks the answer for the instrumented product: the
// violation is Unsafe with a trace that replays on it and names the
// property, for the observer configuration (the automaton a component,
// the path carried over) and for configurations without it (the product
// analysed itself); a cegar configuration with the observer is refused by
// Check (its paths end at calls, not errors) and run on the product by
// CheckProduct.
func TestCheckProduct(t *testing.T) {
	cfg, err := cpaengine.LoadConfig("../../examples/locking.cfg")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := observer.Load(cfg.Observer)
	if err != nil {
		t.Fatal(err)
	}
	cegarObs := *cfg
	cegarObs.CEGAR = true
	engines := map[string]*cpaengine.Engine{
		"observer config": cpaengine.New(cfg),
		"cegar observer":  cpaengine.New(&cegarObs),
		"model-checking":  cpaengine.NewNamed("model-checking"),
		"bdd":             cpaengine.NewNamed("bdd"),
	}
	for name, eng := range engines {
		for _, file := range []string{"locking.bp", "locking-ok.bp"} {
			inst, err := observer.Instrument(spec, testsuite.LowerFile(t, "../../examples/"+file, ""))
			if err != nil {
				t.Fatal(err)
			}
			if err := eng.SupportsProduct(inst, engine.Query{}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := eng.CheckProduct(context.Background(), inst, engine.Query{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, file, err)
			}
			if file == "locking-ok.bp" {
				if res.Verdict != result.Safe {
					t.Errorf("%s %s: %s (%s), want safe", name, file, res.Verdict, res.Reason)
				}
				continue
			}
			if res.Verdict != result.Unsafe {
				t.Fatalf("%s %s: %s (%s), want unsafe", name, file, res.Verdict, res.Reason)
			}
			if err := interp.Replay(inst.Prog, res.Trace); err != nil {
				t.Errorf("%s: the trace does not replay on the product: %v\n%s", name, err, testsuite.TraceText(res.Trace))
			}
			if pr := inst.Violation(res.Trace); pr == nil || pr.Line != 36 || pr.Observer.State != "locked" {
				t.Errorf("%s: violation %+v", name, pr)
			}
		}
	}
	if err := cpaengine.New(&cegarObs).Supports(testsuite.LowerFile(t, "../../examples/locking.bp", ""), engine.Query{}); err == nil {
		t.Errorf("Check accepts cegar with the observer")
	}
}
