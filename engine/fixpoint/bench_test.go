package fixpoint_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/fixpoint"
	"boolprog/engine/summary"
	"boolprog/fix/program"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// benchEngines are the engines compared: Getafix's ef and efopt, and the
// Bebop engine.
func benchEngines(b *testing.B) map[string]func() engine.Engine {
	return map[string]func() engine.Engine{
		"ef":      newEngine(b, "ef"),
		"efopt":   newEngine(b, "efopt"),
		"summary": func() engine.Engine { return summary.New(summary.Options{}) },
		// ef asking the solver for its frontier evaluation (#frontier):
		// a user's formula, whose traces come from ef.
		"ef+frontier": func() engine.Engine {
			text, err := program.Algorithm("ef")
			if err != nil {
				b.Fatal(err)
			}
			e, err := fixpoint.New("ef", fixpoint.Options{Formula: text + "#frontier Summary;\n", FormulaFile: "ef-frontier.mu"})
			if err != nil {
				b.Fatal(err)
			}
			return e
		},
	}
}

// cpuTime is the CPU time (user and system) of the process so far: on a
// shared machine it says more than the wall-clock time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runBench(b *testing.B, p *ir.Program, newEng func() engine.Engine, want result.Verdict) {
	b.Helper()
	start := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		res := engine.Run(context.Background(), newEng(), p, engine.Query{})
		if res.Verdict != want {
			b.Fatalf("%s %s, want %s", res.Verdict, res.Reason, want)
		}
		if n, ok := res.Stats.Counters["rounds"]; ok {
			b.ReportMetric(float64(n), "rounds")
		}
		b.ReportMetric(float64(res.Stats.Counters["peak_bdd_nodes"]), "peak-nodes")
	}
}

// BenchmarkTemplate checks the Bebop template T(N), N = 100 ... 1600
// (100 only with -short): "search" is the whole search of the safe
// program (its SLIC_ERROR label is absent), with ef, efopt, ef with
// #frontier, and summary; "reach" checks the label reach, reachable at the
// deepest call (the search, then a trace of about 33N steps), with ef,
// efopt and summary. Run it with -benchtime 1x: one check per size is
// long enough.
func BenchmarkTemplate(b *testing.B) {
	sizes := []int{100, 200, 400, 800, 1600}
	if testing.Short() {
		sizes = sizes[:1]
	}
	engines := benchEngines(b)
	for _, n := range sizes {
		safe := testsuite.Lower(b, fmt.Sprintf("t%d.bp", n), gen.BebopTemplate(n), "")
		for _, name := range []string{"ef", "efopt", "ef+frontier", "summary"} {
			b.Run(fmt.Sprintf("search/N=%d/%s", n, name), func(b *testing.B) { runBench(b, safe, engines[name], result.Safe) })
		}
		reach := testsuite.Lower(b, fmt.Sprintf("t%d.bp", n), gen.BebopTemplate(n), "reach")
		for _, name := range []string{"ef", "efopt", "summary"} {
			b.Run(fmt.Sprintf("reach/N=%d/%s", n, name), func(b *testing.B) { runBench(b, reach, engines[name], result.Unsafe) })
		}
	}
}

// BenchmarkSatabs checks the sequential programs of the satabs-boppo
// suite, one after the other, with each engine.
func BenchmarkSatabs(b *testing.B) {
	cases := testsuite.SatabsBoppoOrSkip(b)
	engines := benchEngines(b)
	for _, name := range []string{"ef", "efopt", "ef+frontier", "summary"} {
		b.Run(name, func(b *testing.B) {
			start := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op") }()
			for i := 0; i < b.N; i++ {
				for _, c := range cases {
					p := testsuite.LowerFile(b, c.File, c.Target)
					if p.Concurrent {
						continue
					}
					want := result.Safe
					if c.Failed {
						want = result.Unsafe
					}
					if res := engine.Run(context.Background(), engines[name](), p, engine.Query{}); res.Verdict != want {
						b.Fatalf("%s: %s %s, want %s", c.Name, res.Verdict, res.Reason, want)
					}
				}
			}
		})
	}
}
