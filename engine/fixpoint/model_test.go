package fixpoint_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/fixpoint"
	"boolprog/fix/program"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// TestModelRoundTrip writes the model of programs for every algorithm
// (the relations as formulas, as boolprog mucke --emit does), evaluates
// it with the solver alone, and compares the answer with the verdicts of
// the satabs suite and, for random programs, of the explicit engine; the
// engine itself (relations provided as BDDs) must agree too.
func TestModelRoundTrip(t *testing.T) {
	type prog struct {
		name   string
		p      *ir.Program
		unsafe bool
	}
	var progs []prog
	for _, c := range testsuite.SatabsBoppoOrSkip(t) {
		p := testsuite.LowerFile(t, c.File, c.Target)
		if p.Concurrent {
			continue
		}
		progs = append(progs, prog{c.Name, p, c.Failed})
	}
	n := testflags.N(5, 10, 40, 40)
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		ex := engine.Run(context.Background(), explicit.New(), p, engine.Query{})
		if ex.Verdict == result.Unknown {
			continue
		}
		progs = append(progs, prog{fmt.Sprintf("seed%d", seed), p, ex.Verdict == result.Unsafe})
	}
	for _, pr := range progs {
		for _, alg := range program.Algorithms {
			if got, _ := testsuite.SolveModel(t, pr.p, alg); got != pr.unsafe {
				t.Errorf("%s, model for %s: %v, want %v", pr.name, alg, got, pr.unsafe)
			}
			e, err := fixpoint.New(alg, fixpoint.Options{Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			res := testsuite.Check(t, e, pr.p, engine.Query{})
			if got := res.Verdict == result.Unsafe; got != pr.unsafe || res.Verdict == result.Unknown {
				t.Errorf("%s, engine with %s: %s %s, want unsafe=%v", pr.name, alg, res.Verdict, res.Reason, pr.unsafe)
			}
		}
	}
}
