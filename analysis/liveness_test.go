package analysis_test

import (
	"fmt"
	"testing"

	"boolprog/analysis"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// TestLiveness checks the example of the Bebop paper's §3.3.
func TestLiveness(t *testing.T) {
	p := testsuite.Lower(t, "t.bp", `void main()
begin
  decl a, b, c, d, e, f;
L1: a := b | c;
L2: d := a | e;
L3: e := d | e;
L4: f := d;
end
`, "")
	sl := analysis.SlotsOf(p)
	lv := analysis.ComputeLiveness(p, analysis.Of(analysis.NewCache(p), analysis.CallGraph), func(*ir.Proc) analysis.Set { return analysis.NewSet(sl.N()) })
	main := p.Procs[p.Main]
	for label, want := range map[string][]string{
		"L1": {"b", "c", "e"},
		"L2": {"a", "e"},
		"L3": {"d", "e"},
		"L4": {"d"},
	} {
		var got []string
		for _, s := range lv.Live[p.Main][main.Labels[label][0]].Elems() {
			got = append(got, main.Locals[s-analysis.SlotsOf(p).G])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("live at %s: %v, want %v", label, got, want)
		}
	}
}

// TestLivenessStartThread checks that a start_thread reads its
// arguments: a local read only there is live before it.
func TestLivenessStartThread(t *testing.T) {
	p := testsuite.Lower(t, "t.bp", `void main()
begin
  decl l, m;
L1: l := m;
L2: start_thread t(l);
end
void t(x) begin assert(!x); end
`, "")
	sl := analysis.SlotsOf(p)
	lv := analysis.ComputeLiveness(p, analysis.Of(analysis.NewCache(p), analysis.CallGraph), func(*ir.Proc) analysis.Set { return analysis.NewSet(sl.N()) })
	main := p.Procs[p.Main]
	for label, want := range map[string][]string{"L1": {"m"}, "L2": {"l"}} {
		var got []string
		for _, s := range lv.Live[p.Main][main.Labels[label][0]].Elems() {
			got = append(got, main.Locals[s-sl.G])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("live at %s: %v, want %v", label, got, want)
		}
	}
}

// TestModRefAndCalls checks MOD/REF through calls and the liveness of
// globals read by callees.
func TestModRefAndCalls(t *testing.T) {
	p := testsuite.Lower(t, "t.bp", `decl g, h, k;
void leaf() begin g := h; end
void mid() begin leaf(); end
void main() begin decl x; x := k; mid(); assert(g); end
`, "")
	c := analysis.NewCache(p)
	mr := analysis.Of(c, analysis.ModRef)
	mid := p.Proc("mid").Index
	if got := mr.Mod[mid].Elems(); fmt.Sprint(got) != "[0]" {
		t.Errorf("MOD(mid) = %v, want [0] (g)", got)
	}
	if got := mr.Ref[mid].Elems(); fmt.Sprint(got) != "[1]" {
		t.Errorf("REF(mid) = %v, want [1] (h)", got)
	}
	lv := analysis.Of(c, analysis.Liveness) // exits read MOD (and returned values: none here)
	// At main's entry: h (read by leaf through mid) and k; g is
	// overwritten by leaf before the assert... but only may-overwritten,
	// so it stays live.
	main := p.Procs[p.Main]
	if got := lv.Live[p.Main][main.Entry].Elems(); fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("live at main's entry: %v, want [0 1 2]", got)
	}
	if got := lv.Live[mid][p.Procs[mid].Entry].Elems(); fmt.Sprint(got) != "[0 1]" {
		t.Errorf("live at mid's entry: %v, want [0 1] (g passes, h read)", got)
	}
}

// counted is an analysis that counts its runs (for TestCache).
var runs int

var counted = &analysis.Analysis[int]{
	Title:    "counted",
	Requires: []analysis.Key{analysis.ModRef},
	Run: func(p *analysis.Pass) int {
		runs++
		return len(analysis.Result(p, analysis.ModRef).Mod)
	},
}

var undeclared = &analysis.Analysis[int]{
	Title: "undeclared",
	Run: func(p *analysis.Pass) int {
		return len(analysis.Result(p, analysis.CallGraph).Callees)
	},
}

// TestCache checks that a cache runs an analysis once, shares the results
// of its requirements, and refuses a result that was not required.
func TestCache(t *testing.T) {
	p := testsuite.Lower(t, "t.bp", "decl g;\nvoid main() begin f(); end\nvoid f() begin g := T; end\n", "")
	c := analysis.NewCache(p)
	runs = 0
	if n := analysis.Of(c, counted); n != 2 {
		t.Errorf("counted = %d, want 2", n)
	}
	analysis.Of(c, counted)
	if runs != 1 {
		t.Errorf("ran %d times, want once", runs)
	}
	if analysis.Of(c, analysis.ModRef) != analysis.Of(c, analysis.ModRef) {
		t.Errorf("two results for one analysis")
	}
	if analysis.NewCache(p) == c || analysis.Of(analysis.NewCache(p), analysis.ModRef) == analysis.Of(c, analysis.ModRef) {
		t.Errorf("a new cache shares results")
	}
	defer func() {
		if r := recover(); r == nil {
			t.Errorf("reading an analysis that was not required did not panic")
		}
	}()
	analysis.Of(c, undeclared)
}
