package summary_test

import (
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// historyOnly is the engine with the ring search switched off: every
// trace is a history trace (the fallback when a shortest one costs too
// much).
func historyOnly() engine.Engine { return summary.New(summary.Options{ShortestBudget: -1}) }

// TestConformanceHistory runs the conformance suite with every trace built
// from the search's history: verdicts as the oracle's, traces replayed by
// interp (testsuite.Check), but not promised shortest.
func TestConformanceHistory(t *testing.T) {
	testsuite.Conformance(t, testsuite.Config{
		New:         historyOnly,
		Oracle:      func() engine.Engine { return explicit.New() },
		Root:        "../..",
		DecidesWide: true,
		Random:      40,
	})
}

// TestHistoryTrace forces the history trace on programs whose traces go
// through calls, returns, recursion and loops, and on the error inside a
// callee (the walk goes up through call sites): the trace replays
// (testsuite.Check), reaches the same error as the shortest one, is no
// shorter, and the stats say it is not the shortest.
func TestHistoryTrace(t *testing.T) {
	cases := []struct{ name, src, target string }{
		{"chain", chainProgram(50), ""},
		{"loop", `decl g, h;
void main() begin
  while (!g) do
    g, h := *, !h;
  od
  if (h) then assert(F); fi
end
`, ""},
		{"recursion", `decl g;
void main() begin
  g := F;
  r(T);
end
void r(x) begin
  if (x) then
    g := !g;
    r(*);
    r(g);
  else
    if (g) then SLIC_ERROR: skip; fi
  fi
end
`, ""},
		{"returns", `decl a, b;
bool f(x) begin
  if (x) then return !a; fi
  a := !a;
  return a;
end
void main() begin
  decl y;
  y := f(a);
  b := f(y);
  y := f(b);
  assert(!(y & b & a));
end
`, ""},
	}
	for seed := int64(1); seed <= 30; seed++ {
		cases = append(cases, struct{ name, src, target string }{
			fmt.Sprintf("random%d", seed), gen.Random(seed, gen.Options{}), ""})
	}
	unsafe := 0
	progs := []*ir.Program{testsuite.LowerFile(t, "../../examples/bebop-fig1.bp", "R")}
	names := []string{"figure1"}
	for _, c := range cases {
		progs = append(progs, testsuite.Lower(t, c.name, c.src, c.target))
		names = append(names, c.name)
	}
	for i, p := range progs {
		c := struct{ name string }{names[i]}
		short := testsuite.Check(t, summary.New(summary.Options{ShortestBudget: engine.ShortestAlways}), p, engine.Query{})
		hist := testsuite.Check(t, historyOnly(), p, engine.Query{})
		// A spent budget: the ring search stops at its first step, and
		// the search runs again to record its history.
		again := testsuite.Check(t, summary.New(summary.Options{ShortestBudget: 1}), p, engine.Query{})
		if hist.Verdict != short.Verdict || again.Verdict != short.Verdict {
			t.Errorf("%s: history %s, history run again %s, shortest %s", c.name, hist.Verdict, again.Verdict, short.Verdict)
			continue
		}
		if hist.Verdict != result.Unsafe {
			continue
		}
		unsafe++
		if c := again.Stats.Counters; c["trace_shortest"] != 0 || c["trace_shortest_over_budget"] != 1 {
			t.Errorf("%s: with the budget spent, stats %v; want trace_shortest 0 and trace_shortest_over_budget 1", names[i], c)
		}
		if hist.Stats.Counters["trace_shortest"] != 0 || short.Stats.Counters["trace_shortest"] != 1 {
			t.Errorf("%s: trace_shortest %d (history), %d (rings); want 0 and 1", c.name,
				hist.Stats.Counters["trace_shortest"], short.Stats.Counters["trace_shortest"])
		}
		if hist.Trace.Len() < short.Trace.Len() {
			t.Errorf("%s: the history trace has %d steps, fewer than the shortest's %d", c.name, hist.Trace.Len(), short.Trace.Len())
		}
	}
	if unsafe < 10 {
		t.Errorf("only %d unsafe programs: the test checks too few traces", unsafe)
	}
}

// TestShortestOverBudget: a ring search stopped by its budget (here 1ns:
// over at its first poll) in the middle of a long chain leaves the
// manager usable, and the answer is the history trace, with the reason in
// the stats.
func TestShortestOverBudget(t *testing.T) {
	p := testsuite.Lower(t, "chain", chainProgram(600), "")
	res := testsuite.Check(t, summary.New(summary.Options{ShortestBudget: 1}), p, engine.Query{})
	if res.Verdict != result.Unsafe || res.TraceCut {
		t.Fatalf("%s (%s), want unsafe with a trace", res.Verdict, res.Reason)
	}
	c := res.Stats.Counters
	if c["trace_shortest"] != 0 || c["trace_shortest_over_budget"] != 1 || c["trace_shortest_budget_ns"] != 1 {
		t.Errorf("stats %v: want trace_shortest 0, trace_shortest_over_budget 1, trace_shortest_budget_ns 1", c)
	}
}
