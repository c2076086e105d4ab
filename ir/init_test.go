package ir_test

import (
	"slices"
	"strings"
	"testing"

	"boolprog/internal/testsuite"
	"boolprog/ir"
)

func lowerInits(t *testing.T, src string) *ir.Program {
	t.Helper()
	return testsuite.Lower(t, "i.bp", src, "")
}

func TestInitialisers(t *testing.T) {
	p := lowerInits(t, `decl s1 := *;
decl g;
decl s2, s3 := 0, T & !F;
void f(a) begin
  decl l := a & s1;
  decl m;
  decl n := !s2;
  enforce l | n;
  decl k := m;
  return;
end
void main() begin
  decl x := T;
  f(x);
end
`)
	checkInvariants(t, p)
	m, f := p.Proc("main"), p.Proc("f")
	want := []string{
		"decl s1 := *; decl s2, s3 := F, T & !F => s1, s2, s3 := *, F, T & !F",
		"decl x := T => x := T",
		"f(x) => f(x)",
	}
	if got := edgeTexts(p, m); !slices.Equal(got, want) {
		t.Errorf("main:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := m.Edges[0]; m.Entry != e.From || m.Locations[e.From].Pos.Line != 1 || m.Locations[e.To].Pos.Line != 13 {
		t.Errorf("main's entry %d, global step %d -> %d", m.Entry, e.From, e.To)
	}
	want = []string{
		"decl l := a & s1; decl n := !s2 => l, n := a & s1, !s2 constrain 'l | 'n",
		"enforce l | n => assume(l | n)",
		"decl k := m => k := m constrain 'l | 'n",
		"return => return",
	}
	if got := edgeTexts(p, f); !slices.Equal(got, want) {
		t.Errorf("f:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// f's entry: the initialisers, then enforce, then the body.
	if l := f.Locations[f.Entry]; l.Text != "decl l := a & s1; decl n := !s2" || l.Pos.Line != 5 || l.Kind != ir.StmtLoc {
		t.Errorf("f's entry %+v", l)
	}
}

func TestInitialisersGetafix(t *testing.T) {
	p := lowerInits(t, `decl g := T;
void main() begin assert(g); end
void thread1() begin g := F; end
`)
	checkInvariants(t, p)
	if p.Init != 2 || !slices.Equal(p.Threads, []int{0, 1}) {
		t.Fatalf("init %d threads %v", p.Init, p.Threads)
	}
	in := p.Procs[p.Init]
	if in.Name != "init" || len(in.Edges) != 1 || p.OpString(in, in.Edges[0].Op) != "g := T" || in.Locations[in.Entry].Text != "decl g := T" {
		t.Errorf("synthetic init: %q", edgeTexts(p, in))
	}
	if got := edgeTexts(p, p.Procs[0]); got[0] != "assert(g) => assume(g)" {
		t.Errorf("main starts with %q", got[0])
	}

	p = lowerInits(t, `decl g := T;
void thread0() begin g := F; end
void init() begin skip; end
`)
	checkInvariants(t, p)
	in = p.Procs[p.Init]
	if in.Name != "init" || p.Init != 1 || !slices.Equal(edgeTexts(p, in), []string{"decl g := T => g := T", "skip => skip"}) {
		t.Errorf("init %d: %q", p.Init, edgeTexts(p, in))
	}
}
