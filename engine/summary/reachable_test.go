package summary

import (
	"context"
	"errors"
	"testing"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/symbolic"
)

// TestReachableSets: the complete path edges of a safe program (an
// unreachable statement has none, main's entry every state, a callee's
// exit relates its result to its argument), ErrErrorReachable for an unsafe
// one, and an error for a concurrent one.
func TestReachableSets(t *testing.T) {
	const safe = `decl g;
bool id(x) begin return x; end
void main() begin
  decl a;
  a := id(g);
  assert(a = g);
  assume(F);
  skip;
end
`
	p := testsuite.Lower(t, "safe.bp", safe, "")
	rs, err := ReachableSets(context.Background(), p, engine.Query{})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Release()
	l := rs.Layout()
	m := l.M
	main, id := p.Proc("main"), p.Proc("id")
	if got, want := rs.At(main.Index, main.Entry), l.Equal(symbolic.Entry, symbolic.Cur, rs.Iface(main.Index)); got != want {
		t.Errorf("main's entry: not every state")
	}
	skip := main.Locations[main.Edges[len(main.Edges)-1].From]
	if rs.At(main.Index, skip.ID) != bdd.False {
		t.Errorf("the statement after assume(F) at line %d is reached", skip.Pos.Line)
	}
	// At id's exit, \result = \old(x) and g = \old(g), in the one
	// context that main gives: x = g.
	want := m.AndAll(m.Equiv(l.Lit(l.Ret(0), symbolic.Cur), l.Lit(l.Local(0), symbolic.Entry)),
		m.Equiv(l.Lit(0, symbolic.Cur), l.Lit(0, symbolic.Entry)),
		m.Equiv(l.Lit(0, symbolic.Entry), l.Lit(l.Local(0), symbolic.Entry)))
	if got := rs.At(id.Index, id.Exit); got != want {
		t.Errorf("id's exit: the path edges are not \\result = \\old(x) = \\old(g) = g")
	}

	unsafe := testsuite.Lower(t, "unsafe.bp", "decl g;\nvoid main() begin assert(g); end\n", "")
	if _, err := ReachableSets(context.Background(), unsafe, engine.Query{}); !errors.Is(err, ErrErrorReachable) {
		t.Errorf("unsafe program: %v, want ErrErrorReachable", err)
	}
	conc := testsuite.Lower(t, "conc.bp", "decl g;\nvoid f() begin g := T; end\nvoid main() begin start_thread f(); end\n", "")
	if _, err := ReachableSets(context.Background(), conc, engine.Query{}); err == nil {
		t.Errorf("concurrent program: no error")
	}
}

// TestReachableSetter: the engine gives its path edges through the
// optional engine.ReachableSetter, as package witness finds it.
func TestReachableSetter(t *testing.T) {
	var rset engine.ReachableSetter = New(Options{})
	p := testsuite.Lower(t, "safe.bp", "decl g;\nvoid main() begin g := T; assert(g); end\n", "")
	rs, err := rset.ReachableSets(context.Background(), p, engine.Query{})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Release()
	main := p.Procs[p.Main]
	if rs.At(main.Index, main.Exit) == bdd.False || rs.Layout().M == nil {
		t.Errorf("main's exit is not reached")
	}
}
