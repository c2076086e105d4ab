package summary_test

import (
	"strings"
	"testing"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
	"boolprog/syntax"
)

// TestWorklistFlag: --worklist reads auto, callees and alternate, prints
// them back, and refuses the rest.
func TestWorklistFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want summary.Worklist
	}{
		{"auto", summary.WorklistAuto},
		{"callees", summary.WorklistCallees},
		{"alternate", summary.WorklistAlternate},
	} {
		var w summary.Worklist
		if err := w.Set(c.in); err != nil || w != c.want || w.String() != c.in {
			t.Errorf("Set(%q): %v, %v, %q", c.in, err, w, w.String())
		}
	}
	for _, bad := range []string{"", "callers", "fifo", "Callees"} {
		var w summary.Worklist
		if err := w.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

// TestWorklistReachesDeepError is the reason for the alternating order:
// the hard set's g16l8-s7, whose assertion fails only after a long run of
// its callers. Alternating (the default to the first error) finds it with
// under 100,000 BDD nodes (88,120 when measured) and a trace that replays;
// callees first alone exhausts 400,000 nodes without reaching it (it
// was undecided after 10 minutes and 11 million nodes). Reordering is
// off, so that the node counts do not depend on the time sifting gets.
func TestWorklistReachesDeepError(t *testing.T) {
	var h gen.HardProgram
	for _, x := range gen.HardSet() {
		if x.Name == "g16l8-s7" {
			h = x
		}
	}
	if h.Name == "" {
		t.Fatal("g16l8-s7 is not in the hard set")
	}
	p := testsuite.LowerDialect(t, h.Name+".bp", h.Source(), syntax.CProver, "")
	q := engine.Query{MaxNodes: 400_000}
	res := check(t, p, q, summary.Options{Reorder: bdd.ReorderOff})
	if res.Verdict != result.Unsafe || res.Trace == nil {
		t.Fatalf("default worklist: %s (%s); want the error with a trace", res.Verdict, res.Reason)
	}
	if n := res.Stats.Counters["peak_bdd_nodes"]; n > 100_000 {
		t.Errorf("default worklist: peak %d BDD nodes; want at most 100,000", n)
	}
	if testing.Short() {
		return
	}
	res = check(t, p, q, summary.Options{Reorder: bdd.ReorderOff, Worklist: summary.WorklistCallees})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "node limit") {
		t.Errorf("callees first: %s (%s); want the node limit", res.Verdict, res.Reason)
	}
}

// TestWorklistHoldsEachLocationOnce: the worklists hold a location at most
// once each, however often it is scheduled. With two heaps (alternate, the
// default to the first error) the stale entries of a loop's body used to
// pile up in one of them, one per turn of the loop: on a 40-bit counter the
// heap grew by 20 MB a second, past any memory limit. Here a 10-bit counter
// turns its loop 1,024 times; the worklists' peak must stay within the
// locations of both heaps.
func TestWorklistHoldsEachLocationOnce(t *testing.T) {
	p := testsuite.LowerDialect(t, "counter.bp", gen.Counter(10), syntax.CProver, "")
	for _, w := range []summary.Worklist{summary.WorklistAlternate, summary.WorklistCallees} {
		res := check(t, p, engine.Query{}, summary.Options{Worklist: w})
		if res.Verdict != result.Unsafe {
			t.Fatalf("%s: %s (%s); want the error", w, res.Verdict, res.Reason)
		}
		peak, locs := res.Stats.Counters["worklist_peak"], res.Stats.Counters["locations"]
		if peak <= 0 || locs <= 0 || peak > 2*locs {
			t.Errorf("%s: worklist peak %d, %d locations; want within 1 and %d", w, peak, locs, 2*locs)
		}
	}
}
