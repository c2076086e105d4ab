package conc_test

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	conceng "boolprog/engine/conc"
	_ "boolprog/engine/summary"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/result"
)

var long = flag.Bool("long", false, "also run the slow benchmarks (Threads5, Threads7, p-peterson, Getafix's fib)")

const bench = "../../../shared/benchmarks"

// TestBenchmarks runs the concurrent satabs-boppo tests (and, with -long,
// Getafix's fib programs) at fixed bounds: every FAILED one is found (the
// bound is the smallest, from --deepen runs), every SUCCESSFUL one stays
// safe, and every trace replays.
func TestBenchmarks(t *testing.T) {
	type tc struct {
		file, target string
		bound        result.Bound
		deepen       bool
		maxThreads   int
		want         result.Verdict
		reason       string // of an Unknown
		slow         bool
	}
	rounds := func(k int) result.Bound { return result.Bound{Kind: result.Rounds, K: k} }
	cases := []tc{
		{file: "satabs-boppo/Simple4/main.bp", bound: rounds(1), want: result.Safe},
		{file: "satabs-boppo/Simple4/main.bp", bound: rounds(2), want: result.Unsafe},
		{file: "satabs-boppo/Threads1/main.bp", bound: rounds(1), want: result.Unsafe},
		{file: "satabs-boppo/Threads2/main.bp", bound: rounds(2), deepen: true, want: result.Unsafe},
		{file: "satabs-boppo/Threads3/main.bp", bound: rounds(1), want: result.Unknown, reason: "creates more"},
		{file: "satabs-boppo/Threads3/main.bp", bound: rounds(1), maxThreads: 3, want: result.Unsafe},
		{file: "satabs-boppo/Threads6/main.bp", target: "SLIC_ERROR", bound: rounds(1), want: result.Unsafe},
		{file: "satabs-boppo/Threads8/main.bp", bound: rounds(2), want: result.Unsafe},
		{file: "satabs-boppo/n-conc/n-conc.bp", target: "SLIC_ERROR", bound: rounds(2), want: result.Unsafe},
		{file: "satabs-boppo/n-conc2/n-conc2.bp", target: "SLIC_ERROR", bound: rounds(2), want: result.Unsafe},
		{file: "satabs-boppo/n-peterson/n-peterson.bp", target: "SLIC_ERROR", bound: rounds(2), want: result.Unsafe},
		{file: "satabs-boppo/p-conc/p-conc.bp", target: "SLIC_ERROR", bound: rounds(2), want: result.Safe},
		{file: "satabs-boppo/p-conc/p-conc.bp", target: "SLIC_ERROR", bound: result.Bound{Kind: result.ContextSwitches, K: 1}, want: result.Safe},
		{file: "satabs-boppo/Threads4/main.bp", bound: rounds(1), want: result.Unknown, reason: "creates more", slow: true},
		{file: "satabs-boppo/Threads5/main.bp", bound: rounds(2), maxThreads: 5, want: result.Unsafe, slow: true},
		{file: "satabs-boppo/Threads7/main.bp", bound: rounds(1), want: result.Safe, slow: true},
		{file: "satabs-boppo/p-peterson/p-peterson.bp", target: "SLIC_ERROR", bound: rounds(2), want: result.Safe, slow: true},
		{file: "getafix/fib_3_safe.bp", bound: rounds(1), want: result.Safe, slow: true},
		{file: "getafix/fib_3_unsafe.bp", bound: rounds(3), deepen: true, want: result.Unsafe, slow: true},
	}
	for _, c := range cases {
		for _, lazy := range []bool{false, true} {
			name := strings.TrimSuffix(filepath.Base(filepath.Dir(c.file))+"-"+filepath.Base(c.file), ".bp") + "-" + c.bound.String()
			if lazy {
				name += "-lazy"
			}
			t.Run(name, func(t *testing.T) {
				if c.slow && !*long {
					t.Skip("slow: run with -long")
				}
				p := testsuite.LowerFile(t, filepath.Join(bench, c.file), c.target)
				e := &conceng.Engine{Lazy: lazy, Deepen: c.deepen, MaxThreads: c.maxThreads}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				start := time.Now()
				res := engine.Run(ctx, e, p, engine.Query{Bound: c.bound})
				t.Logf("%s %s (%s) in %v", res.Verdict, res.Bound, res.Reason, time.Since(start))
				if res.Verdict != c.want {
					t.Fatalf("%s (%s), want %s", res.Verdict, res.Reason, c.want)
				}
				if c.reason != "" && !strings.Contains(res.Reason, c.reason) {
					t.Errorf("reason %q, want one saying %q", res.Reason, c.reason)
				}
				if res.Verdict == result.Safe && res.Bound != c.bound {
					t.Errorf("safe up to %s, want %s", res.Bound, c.bound)
				}
				if res.Verdict == result.Unsafe {
					if err := interp.Replay(p, res.Trace); err != nil {
						t.Fatalf("the trace does not replay: %v", err)
					}
					switches := 0
					for _, s := range res.Trace.Steps {
						if s.Switch {
							switches++
						}
					}
					t.Logf("error at %s, %d steps, %d context switches", res.Bound, len(res.Trace.Steps), switches)
				}
			})
		}
	}
}

// TestSequential: on a sequential program the engine is its sequential
// engine, and refuses a bound.
func TestSequential(t *testing.T) {
	p := testsuite.LowerFile(t, "../../examples/bebop-fig1.bp", "R")
	res := engine.Run(context.Background(), &conceng.Engine{}, p, engine.Query{Target: "R"})
	if res.Verdict != result.Unsafe {
		t.Fatalf("%s (%s), want unsafe", res.Verdict, res.Reason)
	}
	res = engine.Run(context.Background(), &conceng.Engine{}, p, engine.Query{Target: "R", Bound: result.Bound{Kind: result.Rounds, K: 2}})
	if res.Verdict != result.Unknown {
		t.Fatalf("bounded query on a sequential program: %s, want unknown", res.Verdict)
	}
}
