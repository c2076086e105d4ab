package summary_test

import (
	"boolprog/internal/testsuite"
	"context"
	"fmt"
	"runtime"
	"testing"

	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/ir"
	"boolprog/result"
)

// TestTemplate checks the verdicts on the Bebop template T(N) and its
// variants with a reachable and an unreachable error, under every
// configuration, and that the reachable error's trace replays.
func TestTemplate(t *testing.T) {
	for _, n := range []int{1, 2, 5, 40} {
		for _, c := range []struct {
			e      gen.TemplateError
			target string
			want   result.Verdict
		}{
			{gen.NoError, "", result.Safe},
			{gen.NoError, "reach", result.Unsafe},
			{gen.ReachableError, "", result.Unsafe},
			{gen.UnreachableError, "", result.Safe},
		} {
			name := fmt.Sprintf("T(%d)/%d/%s", n, c.e, c.target)
			p := testsuite.Lower(t, name, gen.BebopTemplateWith(n, c.e), c.target)
			var ex *result.Result
			if n <= 5 {
				ex = oracle(t, p, engine.Query{})
			}
			for _, o := range allOptions {
				res := check(t, p, engine.Query{}, o.opts)
				if res.Verdict != c.want {
					t.Errorf("%s %s: verdict %s (%s), want %s", name, o.name, res.Verdict, res.Reason, c.want)
				}
				if ex != nil && res.Verdict == result.Unsafe && len(res.Trace.Steps) != len(ex.Trace.Steps) {
					t.Errorf("%s %s: %d steps, explicit %d", name, o.name, len(res.Trace.Steps), len(ex.Trace.Steps))
				}
			}
		}
	}
}

// BenchmarkTemplate measures the paper's experiment: all reachable states of
// T(N). Besides ns/op it reports the peak number of BDD nodes, the path
// edges, the summary tuples and the worklist iterations, and the peak heap
// in use (sampled by the runtime's GC: an indication, not a bound).
func BenchmarkTemplate(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800, 1600, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			benchTemplate(b, n, summary.Options{})
		})
	}
}

// BenchmarkTemplateOptions measures T(800) with each optimisation switched
// off.
func BenchmarkTemplateOptions(b *testing.B) {
	for _, o := range allOptions[:5] {
		b.Run(o.name, func(b *testing.B) {
			benchTemplate(b, 800, o.opts)
		})
	}
}

func benchTemplate(b *testing.B, n int, opts summary.Options) {
	p := testsuite.Lower(b, "T.bp", gen.BebopTemplate(n), "")
	e := summary.New(opts)
	q := engine.Query{AllReachable: true}
	var res *result.Result
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		res, err = e.Check(context.Background(), p, q)
		if err != nil {
			b.Fatal(err)
		}
		if res.Verdict != result.Safe {
			b.Fatalf("verdict %s %s", res.Verdict, res.Reason)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(res.Stats.Counters["peak_bdd_nodes"]), "peak-nodes")
	b.ReportMetric(float64(res.Stats.Counters["path_edges"]), "path-edges")
	b.ReportMetric(float64(res.Stats.Counters["summaries"]), "summaries")
	b.ReportMetric(float64(res.Stats.Counters["iterations"]), "iterations")
}

// BenchmarkOptions measures the effect of each optimisation on programs
// bigger than T(N)'s four variables in scope: the 23 sequential
// satabs-boppo programs, and 12 generated programs with 8 globals and up to
// 8 locals per procedure (all reachable states of each, and the shortest
// trace of the unsafe ones). It reports the largest peak of BDD nodes and
// the total path edges of each set.
func BenchmarkOptions(b *testing.B) {
	sets := map[string][]*ir.Program{}
	cases, err := testsuite.SatabsBoppo()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range cases {
		p := testsuite.LowerFile(b, d.File, d.Target)
		if !p.Concurrent {
			sets["boppo"] = append(sets["boppo"], p)
		}
	}
	for seed := int64(1); seed <= 12; seed++ {
		src := gen.Random(seed, gen.Options{Globals: 8, MaxLocals: 8, Procs: 10, Stmts: 8})
		sets["large"] = append(sets["large"], testsuite.Lower(b, "large.bp", src, ""))
	}
	for _, set := range []string{"boppo", "large"} {
		for _, o := range allOptions[:5] {
			b.Run(set+"/"+o.name, func(b *testing.B) {
				e := summary.New(o.opts)
				var peak int64
				var edges float64 // path edges saturate at MaxInt64 per program
				for i := 0; i < b.N; i++ {
					peak, edges = 0, 0
					for _, p := range sets[set] {
						res, err := e.Check(context.Background(), p, engine.Query{AllReachable: true})
						if err != nil {
							b.Fatal(err)
						}
						peak = max(peak, res.Stats.Counters["peak_bdd_nodes"])
						edges += float64(res.Stats.Counters["path_edges"])
					}
				}
				b.ReportMetric(float64(peak), "peak-nodes")
				b.ReportMetric(edges, "path-edges")
			})
		}
	}
}

// BenchmarkTemplateTrace measures a check with a trace, as the CLI runs it
// by default, on T(N) with target label `reach`: the shortest trace goes
// down to levelN and back (26,404 steps at N = 800, linear in N), so it
// measures reachability, the ring search and the trace construction
// together. Besides ns/op it reports the trace's steps and the times of
// the last run's phases: reachability, the ring search, and the ring
// search and trace together (the engine's statistics). The trace is not replayed here (interp's
// benchmark measures Replay).
func BenchmarkTemplateTrace(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800, 1600, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			p := testsuite.Lower(b, "T.bp", gen.BebopTemplate(n), "reach")
			e := summary.New(summary.Options{})
			var res *result.Result
			runtime.GC()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				res, err = e.Check(context.Background(), p, engine.Query{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Verdict != result.Unsafe {
					b.Fatalf("verdict %s %s", res.Verdict, res.Reason)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(len(res.Trace.Steps)), "steps")
			b.ReportMetric(float64(res.Stats.Counters["time_reach_ns"])/1e6, "reach-ms")
			b.ReportMetric(float64(res.Stats.Counters["time_rings_ns"])/1e6, "rings-ms")
			b.ReportMetric(float64(res.Stats.Counters["time_trace_ns"])/1e6, "trace-ms")
		})
	}
}
