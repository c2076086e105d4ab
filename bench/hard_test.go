package bench

import (
	"context"
	"testing"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// BenchmarkHardSet checks every program of the hard set (gen.HardSet)
// with the summary engine, reordering off and auto, each run capped at 30
// s, and reports whether it was decided, the peak BDD nodes and the
// reorderings (a program without an error site in reach computes every
// reachable state). It is heavy (up to 20 minutes): run it with -benchtime 1x,
// e.g. go test -run X -bench HardSet/g16l8 -benchtime 1x.
func BenchmarkHardSet(b *testing.B) {
	for _, h := range gen.HardSet() {
		p := lowerHard(b, h)
		// A program without an error site in reach computes every
		// reachable state (check would answer it at once), as in
		// boolprog bench --set hard.
		_, errorSite := p.ErrorReachableInCFG()
		q := engine.Query{AllReachable: !errorSite}
		for _, mode := range []bdd.ReorderMode{bdd.ReorderOff, bdd.ReorderAuto} {
			b.Run(h.Name+"/"+mode.String(), func(b *testing.B) {
				var res *result.Result
				for i := 0; i < b.N; i++ {
					ctx, cancel := context.WithTimeoutCause(context.Background(), 30*time.Second, engine.ErrTimeout)
					res = engine.Run(ctx, summary.New(summary.Options{Reorder: mode}), p, q)
					cancel()
				}
				c := res.Stats.Counters
				decided := 0.0
				if res.Verdict != result.Unknown {
					decided = 1
				}
				b.ReportMetric(decided, "decided")
				b.ReportMetric(float64(c["peak_bdd_nodes"]), "peak-nodes")
				b.ReportMetric(float64(c["bdd_reorders"]), "reorders")
				b.ReportMetric(float64(c["time_reorder_ns"])/1e9, "reorder-s")
			})
		}
	}
}

func lowerHard(tb testing.TB, h gen.HardProgram) *ir.Program {
	f, err := syntax.ParseFile(h.Name+".bp", []byte(h.Source()), syntax.CProver)
	if err != nil {
		tb.Fatal(err)
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	p, err := ir.Lower(f, info, ir.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestSiftCasesAgree checks that sifting keeps the functions of the
// sifting cases: the satisfying assignments are counted before and after.
func TestSiftCasesAgree(t *testing.T) {
	for _, c := range SiftCases {
		if c.Kind == "pairs" && c.N > 12 || c.Kind == "milner" && c.N > 5 || c.Kind == "nqueens" && c.N > 8 {
			continue // small instances only
		}
		cfg := DefaultConfig
		cfg.Vars = c.Vars
		o := NewOurs(cfg)
		fs := SiftBuild(o, c)
		all := make([]int, c.Vars)
		for i := range all {
			all[i] = i
		}
		s := o.MakeSet(all)
		var before []float64
		for _, f := range fs {
			before = append(before, o.SatCount(f, s))
		}
		r := o.Sift()
		if r.After > r.Before {
			t.Errorf("%s: sifting grew %d -> %d", c.Name, r.Before, r.After)
		}
		for i, f := range fs {
			if got := o.SatCount(f, s); got != before[i] {
				t.Errorf("%s: %g solutions after sifting, %g before", c.Name, got, before[i])
			}
		}
	}
}
