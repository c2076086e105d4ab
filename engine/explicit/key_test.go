package explicit

import (
	"testing"

	"boolprog/analysis"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/syntax"
)

// keyProgram has nine globals (the key's bits cross a byte) and two
// threads whose local x is dead at their entry (written before it is
// read) and y live.
const keyProgram = `decl g0, g1, g2, g3, g4, g5, g6, g7, g8;
void thread0() begin decl x, y; x := y; g0 := x; end
void thread1() begin decl x, y; x := y; g8 := x; end
`

// TestKey: the search's key tells configurations apart by every value
// that can matter and identifies those that differ only in dead ones.
func TestKey(t *testing.T) {
	p := testsuite.LowerDialect(t, "key.bp", keyProgram, syntax.Getafix, "")
	d := newDeadness(p, analysis.NewCache(p))
	ng, nl := len(p.Globals), interp.StartLocals(p)
	if ng != 9 || nl != 4 {
		t.Fatalf("%d globals and %d starting locals, want 9 and 4", ng, nl)
	}
	// Locals are thread0's x, y, then thread1's x, y.
	base := func() interp.Config { return interp.Initial(p, make([]bool, ng), make([]bool, nl)) }
	with := func(global, local int, f func(*interp.Config)) interp.Config {
		g, l := make([]bool, ng), make([]bool, nl)
		if global >= 0 {
			g[global] = true
		}
		if local >= 0 {
			l[local] = true
		}
		c := interp.Initial(p, g, l)
		if f != nil {
			f(&c)
		}
		return c
	}
	key := func(c interp.Config) string { return string(d.key(c)) }
	b := key(base())
	for _, c := range []struct {
		name string
		c    interp.Config
		same bool
	}{
		{"the same", base(), true},
		{"thread0's dead x", with(-1, 0, nil), true},
		{"thread1's dead x", with(-1, 2, nil), true},
		{"thread0's live y", with(-1, 1, nil), false},
		{"thread1's live y", with(-1, 3, nil), false},
		{"the first global", with(0, -1, nil), false},
		{"the eighth global", with(7, -1, nil), false},
		{"the ninth global (the second byte)", with(8, -1, nil), false},
		{"the running thread", with(-1, -1, func(c *interp.Config) { c.Running = 1 }), false},
		{"the atomic owner", with(-1, -1, func(c *interp.Config) { c.Atomic = 0 }), false},
		{"thread1 ended", with(-1, -1, func(c *interp.Config) { c.Threads[1] = nil }), false},
		{"thread1 at its exit", with(-1, -1, func(c *interp.Config) {
			f := *c.Threads[1]
			f.Loc = p.Procs[f.Proc].Exit
			c.Threads[1] = &f
		}), false},
	} {
		if got := key(c.c) == b; got != c.same {
			t.Errorf("%s: same key %v, want %v", c.name, got, c.same)
		}
	}
	// Keys of different lengths cannot be prefixes that collide: one
	// thread fewer is told apart even where the rest agrees.
	short := base()
	short.Threads = short.Threads[:1]
	if key(short) == b {
		t.Error("one thread fewer: same key")
	}
}
