package bdd

import (
	"math/rand"
	"testing"

	"boolprog/internal/testflags"
)

// A function whose size is exponential under the identity order and linear
// when x_i and x_{n+i} are adjacent.
func pairsFunc(m *Manager, n int) Node {
	f := False
	for i := 0; i < n; i++ {
		f = m.Or(f, m.And(m.Ithvar(i), m.Ithvar(n+i)))
	}
	return f
}

func TestReorderKeepsFunctions(t *testing.T) {
	tests := []struct {
		name   string
		blocks bool
		auto   bool
	}{
		{"sift", false, false},
		{"sift with blocks", true, false},
		{"automatic", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 10, Config{InitialNodes: 128})
			m := w.m
			if tc.blocks {
				for v := 0; v < 10; v += 2 {
					if err := m.AddBlock(v, v+1); err != nil {
						t.Fatal(err)
					}
				}
			}
			m.SetAutoReorder(tc.auto)
			rng := rand.New(rand.NewSource(9))
			var fs []fn
			var roots []*Root
			for i := 0; i < 40; i++ {
				f := w.randFunc(rng, 6)
				fs = append(fs, f)
				roots = append(roots, m.Keep(f.n))
				m.Safepoint()
			}
			temp := w.randFunc(rng, 6) // a temporary must survive reordering too
			if !tc.auto {
				m.Reorder()
			} else {
				for i := 0; i < 200; i++ {
					w.randFunc(rng, 7)
					m.Safepoint()
				}
				m.GC()
			}
			for i, f := range fs {
				w.check("after reorder", roots[i].Node(), f.t)
				// canonical: rebuilding gives the same node
				if g := w.rebuild(f.t); g != roots[i].Node() {
					t.Fatalf("function %d: rebuilt node %d != kept node %d", i, g, roots[i].Node())
				}
			}
			if !tc.auto {
				w.check("temporary after reorder", temp.n, temp.t)
			}
			if tc.blocks {
				for v := 0; v < 10; v += 2 {
					if d := m.Level(v+1) - m.Level(v); d != 1 {
						t.Fatalf("block (%d,%d) split: levels %d %d", v, v+1, m.Level(v), m.Level(v+1))
					}
				}
			}
			if tc.auto && m.Stats().Reorders == 0 {
				t.Fatal("no automatic reordering happened")
			}
		})
	}
}

// rebuild builds the BDD of a truth table as a disjunction of minterms.
func (w *world) rebuild(t tt) Node {
	m := w.m
	f := False
	for a := 0; a < w.size(); a++ {
		if !t.get(a) {
			continue
		}
		c := True
		for v := 0; v < w.nv; v++ {
			if a>>v&1 != 0 {
				c = m.And(c, m.Ithvar(v))
			} else {
				c = m.And(c, m.NIthvar(v))
			}
		}
		f = m.Or(f, c)
	}
	return f
}

func TestSiftingShrinks(t *testing.T) {
	m := New(Config{})
	f := m.Keep(pairsFunc(m, 8))
	before := m.NodeCount(f.Node())
	m.Reorder()
	after := m.NodeCount(f.Node())
	if after >= before/4 {
		t.Fatalf("sifting did not shrink: %d -> %d", before, after)
	}
	if m.SatCount(f.Node(), m.VarSet(seq(16)...)) != m.SatCount(pairsFunc(m, 8), m.VarSet(seq(16)...)) {
		t.Fatal("function changed")
	}
}

// TestSiftWindow: a window bounds how far a group moves in one sifting.
// The pairs function with every x before every y needs each y_i moved
// next to its x_i, up to 8 levels: a window of 1 cannot get there in one
// sifting, and full sifting does; both keep the function.
func TestSiftWindow(t *testing.T) {
	sizes := map[int]int{}
	for _, w := range []int{-1, 1} {
		m := New(Config{ReorderWindow: w})
		f := m.Keep(pairsFunc(m, 8))
		want := m.SatCount(f.Node(), m.VarSet(seq(16)...))
		m.Reorder()
		sizes[w] = m.NodeCount(f.Node())
		if got := m.SatCount(f.Node(), m.VarSet(seq(16)...)); got != want {
			t.Fatalf("window %d: the function changed (%v models, want %v)", w, got, want)
		}
	}
	if sizes[1] <= sizes[-1] {
		t.Errorf("window 1 sifted to %d nodes, full sifting to %d: the window did not bound the moves", sizes[1], sizes[-1])
	}
}

// TestSiftBounds: the growth bound and window of each kind of sifting.
func TestSiftBounds(t *testing.T) {
	for _, tc := range []struct {
		cfg    Config
		auto   bool
		growth float64
		window int
	}{
		{Config{}, false, 1.2, 0},
		{Config{}, true, 1.1, 4},
		{Config{ReorderMaxGrowth: 1.5, ReorderWindow: 2}, true, 1.5, 2},
		{Config{ReorderWindow: -1}, true, 1.1, 0},
		{Config{ReorderWindow: 3}, false, 1.2, 3},
	} {
		g, w := New(tc.cfg).siftBounds(tc.auto)
		if g != tc.growth || w != tc.window {
			t.Errorf("%+v auto=%v: growth %v window %d, want %v and %d", tc.cfg, tc.auto, g, w, tc.growth, tc.window)
		}
	}
}

func seq(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func TestSetVarOrder(t *testing.T) {
	w := newWorld(t, 8, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(10))
	f := w.randFunc(rng, 7)
	r := m.Keep(f.n)
	m.Safepoint()
	for i := 0; i < 5; i++ {
		order := rng.Perm(8)
		if err := m.SetVarOrder(order); err != nil {
			t.Fatal(err)
		}
		for l, v := range order {
			if m.Level(v) != l || m.VarAtLevel(l) != v {
				t.Fatalf("order not applied: %v", order)
			}
		}
		w.check("after SetVarOrder", r.Node(), f.t)
		g := w.randFunc(rng, 6) // operations keep working under the new order
		w.check("new function", g.n, g.t)
	}
	if err := m.SetVarOrder([]int{0, 1}); err == nil {
		t.Fatal("short order accepted")
	}
	if err := m.AddBlock(m.VarAtLevel(0), m.VarAtLevel(2)); err == nil {
		t.Fatal("non-contiguous block accepted")
	}
}

// TestStressReorder reruns the truth-table tests of the operations with
// the order changed at the start of every operation (ReorderStress, with
// blocks): every result must still be the right function. By default only
// the quick ones run (the engines' stress test covers Replace and the
// quantifiers in use); BOOLPROG_LONG=full runs them all. (SatOne's
// answer depends on the order by definition; its test is left out.)
func TestStressReorder(t *testing.T) {
	stressWorlds = true
	defer func() { stressWorlds = false }()
	tests := []struct {
		name string
		fn   func(*testing.T)
		long bool // only with BOOLPROG_LONG=full: the slowest under stress
	}{
		{"connectives", TestConnectivesAgainstTruthTables, false},
		{"ite", TestIteAgainstTruthTables, true},
		{"quantifiers", TestQuantifiers, true},
		{"replace and compose", TestReplaceAndCompose, true},
		{"restrict and constrain", TestRestrictConstrain, true},
		{"canonicity", TestCanonicity, false},
		{"gc keeps roots", TestGCKeepsRootsAndTemporaries, true},
	}
	for _, tc := range tests {
		if tc.long && !testflags.Full() || testing.Short() && tc.name != "connectives" {
			continue
		}
		t.Run(tc.name, tc.fn)
	}
}

// TestReorderAtNodeLimit sifts in a table too small for some swaps: the
// reordering stops where it must, and every function is unchanged.
func TestReorderAtNodeLimit(t *testing.T) {
	built, stopped := 0, 0
	for limit := 700; limit <= 1500; limit += 40 {
		m := New(Config{InitialNodes: 64, MaxNodes: limit})
		for v := 0; v < 16; v += 4 {
			if err := m.AddBlock(v, v+1); err != nil {
				t.Fatal(err)
			}
		}
		f := m.Keep(pairsFunc(m, 8))
		if m.Err() != nil {
			continue // too small to build the function at all
		}
		built++
		want := make([]bool, 1<<16)
		for a := range want {
			want[a] = evalAt(m, f.Node(), a)
		}
		m.Reorder()
		m.Reorder()
		if m.NodeCount(f.Node()) > 100 {
			stopped++ // the limit stopped sifting before it paired the variables
		}
		for a := range want {
			if evalAt(m, f.Node(), a) != want[a] {
				t.Fatalf("limit %d: function changed at %b", limit, a)
			}
		}
		g := pairsFunc(m, 8) // canonical: rebuilding gives the same node
		if m.Err() == nil && g != f.Node() {
			t.Fatalf("limit %d: rebuilt %d, kept %d", limit, g, f.Node())
		}
	}
	if built == 0 || stopped == 0 || stopped == built {
		t.Fatalf("%d limits built the function, sifting stopped at %d: the limits miss the interesting range", built, stopped)
	}
}

// TestInterrupt: an interrupt stops a long operation with ErrInterrupted
// (sticky until ClearErr) and a reordering at once, changing no function.
func TestInterrupt(t *testing.T) {
	m := New(Config{})
	stop := false
	m.SetInterrupt(func() bool { return stop })
	small := m.Keep(pairsFunc(m, 4))
	stop = true
	if f := pairsFunc(m, 16); f != Invalid || m.Err() != ErrInterrupted {
		t.Fatalf("interrupted operation: %d, err %v", f, m.Err())
	}
	if g := m.And(m.Ithvar(0), m.Ithvar(1)); g != Invalid {
		t.Fatal("the error is not sticky")
	}
	m.ClearErr()
	before := m.NodeCount(small.Node())
	m.Reorder() // interrupted at once
	if m.NodeCount(small.Node()) != before || pairsFunc(m, 4) != small.Node() {
		t.Fatal("an interrupted reordering changed a function")
	}
	stop = false
	if f := pairsFunc(m, 14); f == Invalid || m.Err() != nil {
		t.Fatalf("after the interrupt: %v", m.Err())
	}
}
