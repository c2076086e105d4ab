package concfix_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concfix"
	"boolprog/engine/explicit"
	"boolprog/fix"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

var long = flag.Bool("long", false, "run the long differential (1,000 programs) and the long benchmarks")

func lowerGetafix(t *testing.T, name string, src []byte) *ir.Program {
	t.Helper()
	return testsuite.LowerDialect(t, name, string(src), syntax.Getafix, "")
}

func cs(k int) result.Bound { return result.Bound{Kind: result.ContextSwitches, K: k} }

func rounds(k int) result.Bound { return result.Bound{Kind: result.Rounds, K: k} }

func oracle(t *testing.T) func() engine.Engine {
	return func() engine.Engine {
		e, err := explicit.NewWithOptions(explicit.Options{MaxStates: 20000})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// TestDifferential runs conc-fix against the explicit oracle on random
// Getafix-convention programs at 0, 1 and 2 context switches and 1 and 2
// rounds (-long: 1,000
// programs).
func TestDifferential(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 8
	}
	if *long {
		n = 1000
	}
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      func() engine.Engine { return concfix.New() },
		Oracle:   oracle(t),
		Programs: n,
		Style:    gen.Getafix,
		Bounds:   []result.Bound{cs(0), cs(1), cs(2), rounds(1), rounds(2)},
		Threads:  []int{2, 2, 3},
		// Smaller threads than gen's default, and a time limit per check
		// (a check that runs out is not compared): the fixed point is
		// solved at each bound.
		Options: gen.Options{Stmts: 3, Procs: 2, MaxLocals: 2},
		Timeout: 5 * time.Second,
	})
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// TestBluetooth checks the Bluetooth model's first errors that are cheap
// enough for a unit test: 1 adder + 1 stopper safe up to 2 switches, 1+2
// first error at 3 (the full table: -long).
func TestBluetooth(t *testing.T) {
	for _, c := range []struct {
		file  string
		bound int
		first int // -1: safe
		long  bool
	}{
		{"bluetooth_1_1.bp", 2, -1, false},
		{"bluetooth_1_2.bp", 3, 3, false},
		{"bluetooth_1_1.bp", 6, -1, true},
		{"bluetooth_2_1.bp", 4, 4, true},
		{"bluetooth_2_2.bp", 3, 3, true},
	} {
		if c.long && !*long {
			continue
		}
		path := filepath.Join("../../examples/bluetooth", c.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p := lowerGetafix(t, path, src)
		res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: cs(c.bound)})
		switch {
		case c.first < 0 && res.Verdict != result.Safe:
			t.Errorf("%s at %d: %s (%s), want safe", c.file, c.bound, res.Verdict, res.Reason)
		case c.first >= 0 && (res.Verdict != result.Unsafe || res.Bound != cs(c.first)):
			t.Errorf("%s at %d: %s at %s, want the first error at %d", c.file, c.bound, res.Verdict, res.Bound, c.first)
		}
	}
}

// TestModel checks that the model written for `boolprog mucke` (the
// relations as formulas) gives the engine's answer when solved on its own.
func TestModel(t *testing.T) {
	for _, c := range []struct {
		file string
		k    int
	}{
		{"../../cmd/boolprog/testdata/getafix.bp", 0},
		{"../../cmd/boolprog/testdata/getafix.bp", 1},
		{"../../examples/bluetooth/bluetooth_1_2.bp", 1},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		p := lowerGetafix(t, c.file, src)
		var b bytes.Buffer
		if err := concfix.WriteModel(&b, p, cs(c.k)); err != nil {
			t.Fatal(err)
		}
		f, err := fix.ParseFile("model.mu", b.Bytes())
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		ans, err := fix.Solve(context.Background(), f, fix.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: cs(c.k)})
		if ans.Value != (res.Verdict == result.Unsafe) {
			t.Errorf("%s at %d: the model says %v, the engine %s", c.file, c.k, ans.Value, res.Verdict)
		}
	}
}

// TestRefuses checks the programs and queries conc-fix does not handle.
func TestRefuses(t *testing.T) {
	satabs := testsuite.Lower(t, "s.bp", gen.RandomConcurrent(1, gen.ConcOptions{Threads: 2, Style: gen.Satabs}), "")
	getafix := lowerGetafix(t, "g.bp", []byte(gen.RandomConcurrent(1, gen.ConcOptions{Threads: 2, Style: gen.Getafix})))
	for _, c := range []struct {
		p *ir.Program
		q engine.Query
	}{
		{satabs, engine.Query{Bound: cs(1)}},
		{getafix, engine.Query{}},
	} {
		if res := testsuite.Check(t, concfix.New(), c.p, c.q); res.Verdict != result.Unknown || res.Reason == "" {
			t.Errorf("%s: %s, want unknown with a reason", c.q.Bound, res.Verdict)
		}
	}
}
