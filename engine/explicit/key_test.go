package explicit

import (
	"context"
	"math"
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

// configProgram has Getafix's init, calls (so caller frames), locals
// dead at some locations, a thread that ends and `atomic`.
const configProgram = `decl atomic, g, h;
void init() begin g := *; end
void f(a) begin decl b; b := a; h := b; return; end
void thread0() begin decl x, y; x := g; f(x); y := *; g := y; end
void thread1() begin decl z; atomic := T; z := h; g := !z; atomic := F; end
`

// TestConfigDecodesKey: every configuration the search reaches has a key
// that decodes (deadness.config) to a configuration with that key.
func TestConfigDecodesKey(t *testing.T) {
	p := testsuite.LowerDialect(t, "config.bp", configProgram, syntax.Getafix, "")
	s := &csearch{
		ctx: context.Background(), p: p, limit: math.MaxInt, maxStates: 1 << 20,
		maxThreads: DefaultMaxThreads(p), index: make(map[string]int32),
		dead: newDeadness(p, analysis.NewCache(p)),
	}
	if _, err := s.run(); err != nil {
		t.Fatal(err)
	}
	callers := 0
	for i := 0; i < s.nodes.len(); i++ {
		key := s.nodes.at(int32(i)).key
		c, err := s.dead.config(p, key)
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		if got := string(s.dead.key(c)); got != key {
			t.Fatalf("node %d: the decoded configuration's key %q, want %q", i, got, key)
		}
		for _, f := range c.Threads {
			if f != nil && f.Caller != nil {
				callers++
			}
		}
	}
	if s.nodes.len() < 10 || callers == 0 {
		t.Errorf("%d configurations, %d frames with a caller: the program does not exercise the decoder", s.nodes.len(), callers)
	}
	// A key cut short or with a byte too many does not decode.
	k := s.nodes.at(int32(s.nodes.len() - 1)).key
	for _, bad := range []string{k[:len(k)-1], k + "\x00", ""} {
		if _, err := s.dead.config(p, bad); err == nil {
			t.Errorf("key %q decoded", bad)
		}
	}
}
