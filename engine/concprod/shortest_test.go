package concprod_test

import (
	"context"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestShortest checks the search for a shortest trace on random concurrent
// programs (-long: 150), each without a bound and at 2 rounds: by default
// (without a bound: the search stratified by rounds, then by distance) the
// answer is that of the search by distance from the start
// (engine.ShortestAlways), and so is the trace's length; with no second
// search (--shortest never) the answer is the same and the trace, replayed
// as every trace, no shorter. With a bound the default is the first
// search's trace; --shortest (ShortestBounded) gives, within the least
// bound, the shorter of that trace and the search by distance's, which is
// no longer than either (the search by distance reaches each state at its
// least cost first, and a run that costs more on the way can be shorter:
// the first search, by macro steps, finds some). A budget too small to search gives the first search's
// trace and says so.
func TestShortest(t *testing.T) {
	n := testflags.N(3, 12, 150, 500)
	auto := newEngine(t, concprod.Options{})
	autoBounded := newEngine(t, concprod.Options{ShortestBounded: true})
	always := newEngine(t, concprod.Options{ShortestBudget: engine.ShortestAlways, ShortestBounded: true})
	never := newEngine(t, concprod.Options{ShortestBudget: -1, ShortestBounded: true})
	tiny := newEngine(t, concprod.Options{ShortestBudget: time.Nanosecond, ShortestBounded: true})
	unsafe, longer, overBudget := 0, 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src, p := randomProgram(t, seed, gen.Options{Omit: gen.Recursion})
		for _, b := range []result.Bound{{}, rounds(2)} {
			ctx, cancel := context.WithTimeoutCause(context.Background(), 20*time.Second, engine.ErrTimeout)
			q := engine.Query{Bound: b}
			want := testsuite.CheckContext(ctx, t, always, p, q)
			first := auto
			if b.Kind != result.Unbounded {
				first = autoBounded
			}
			got := testsuite.CheckContext(ctx, t, first, p, q)
			rough := testsuite.CheckContext(ctx, t, never, p, q)
			cut := testsuite.CheckContext(ctx, t, tiny, p, q)
			cancel()
			if want.Verdict == result.Unknown || got.Verdict == result.Unknown || rough.Verdict == result.Unknown || cut.Verdict == result.Unknown {
				continue
			}
			for _, r := range []*result.Result{got, rough, cut} {
				if r.Verdict != want.Verdict || r.Bound != want.Bound {
					t.Fatalf("seed %d at %s: %s %s, by distance %s %s\n%s", seed, b, r.Verdict, r.Bound, want.Verdict, want.Bound, src)
				}
			}
			if want.Verdict != result.Unsafe {
				continue
			}
			unsafe++
			w, g, r := want.Trace.Len(), got.Trace.Len(), rough.Trace.Len()
			if got.Stats.Counters["trace_shortest"] != 1 {
				t.Errorf("seed %d at %s: trace_shortest %d", seed, b, got.Stats.Counters["trace_shortest"])
			}
			if b.Kind == result.Unbounded {
				// Breadth first over the states: the shortest there is.
				if g != w {
					t.Errorf("seed %d at %s: a trace of %d steps, by distance %d\n%s", seed, b, g, w, src)
				}
				if r < w {
					t.Errorf("seed %d at %s: the first search's trace has %d steps, fewer than the shortest's %d", seed, b, r, w)
				}
			} else if g > w || g > r {
				// Within a bound, the shorter of the two searches' traces
				// (the search by distance takes each state at its least
				// cost first, not in the fewest steps).
				t.Errorf("seed %d at %s: a trace of %d steps, by distance %d, the first search's %d\n%s", seed, b, g, w, r, src)
			}
			if r > g {
				longer++
			}
			if cut.Trace.Len() > 1 {
				if cut.Stats.Counters["trace_shortest"] != 0 || cut.Stats.Counters["trace_shortest_over_budget"] != 1 {
					t.Errorf("seed %d at %s: a budget of 1ns: stats %v, want the first search's trace, over budget", seed, b, cut.Stats.Counters)
				}
				overBudget++
			}
		}
	}
	t.Logf("%d programs, %d unsafe answers, the first search's trace longer in %d, over budget in %d", n, unsafe, longer, overBudget)
	if unsafe == 0 || overBudget == 0 {
		t.Errorf("no unsafe answer with a trace to shorten: the test means nothing")
	}
}

// TestShortestFlag: the --shortest flag, given, applies to a bounded query
// too (a second search: the stats say trace_shortest 1); not given, a
// bounded query keeps its first trace (trace_shortest 0) and an unbounded
// one searches for a shortest.
func TestShortestFlag(t *testing.T) {
	info, ok := engine.Lookup(concprod.Name)
	if !ok {
		t.Fatal("conc-product is not registered")
	}
	p := lowerGetafix(t, "../../examples/bluetooth/bluetooth_2_2.bp")
	for _, c := range []struct {
		settings []engine.Setting
		bound    result.Bound
		want     int64 // trace_shortest
	}{
		{nil, cs(6), 0},
		{nil, result.Bound{}, 1},
		{[]engine.Setting{{Name: "shortest", Value: "auto"}}, cs(6), 1},
		{[]engine.Setting{{Name: "shortest", Value: "never"}}, result.Bound{}, 0},
	} {
		e, err := info.Configure(c.settings)
		if err != nil {
			t.Fatal(err)
		}
		res := testsuite.Check(t, e, p, engine.Query{Bound: c.bound})
		if res.Verdict != result.Unsafe {
			t.Fatalf("%v at %s: %s, want unsafe", c.settings, c.bound, res.Verdict)
		}
		if got := res.Stats.Counters["trace_shortest"]; got != c.want {
			t.Errorf("%v at %s: trace_shortest %d, want %d (%d steps)", c.settings, c.bound, got, c.want, res.Trace.Len())
		}
	}
}
