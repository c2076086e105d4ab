package bdd

import (
	"math/rand"
	"slices"
	"testing"
)

func TestTransfer(t *testing.T) {
	const nv = 8
	rev := make([]int, nv) // variable v of the source is nv-1-v of the target
	for v := range rev {
		rev[v] = nv - 1 - v
	}
	tests := []struct {
		name string
		// vars maps the source's variables to the target's.
		vars []int
		// target configures the target: its order, and nodes it already
		// holds.
		target func(m *Manager)
		cfg    Config
	}{
		{name: "identity, fresh target", vars: seq(nv)},
		{name: "shifted past the target's own variables", vars: func() []int {
			out := make([]int, nv)
			for v := range out {
				out[v] = v + 5
			}
			return out
		}(), target: func(m *Manager) { m.ExtVarNum(5); m.Keep(m.And(m.Ithvar(0), m.NIthvar(3))) }},
		{name: "reversed (the order turned upside down)", vars: rev},
		{name: "identity, target order reversed", vars: seq(nv), target: func(m *Manager) {
			m.ExtVarNum(nv)
			order := seq(nv)
			slices.Reverse(order)
			if err := m.SetVarOrder(order); err != nil {
				panic(err)
			}
		}},
		{name: "interleaved into a larger target", vars: func() []int {
			out := make([]int, nv)
			for v := range out {
				out[v] = 2*v + 1
			}
			return out
		}()},
		{name: "small target table (collections and growth)", vars: rev, cfg: Config{InitialNodes: 64}},
		{name: "target reorders at every operation", vars: rev, cfg: Config{Reorder: ReorderStress, InitialNodes: 256}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(7))
			w := newWorld(t, nv, Config{})
			var fs []Node
			for range 6 {
				fs = append(fs, w.m.Keep(w.randFunc(rng, 7).n).Node())
			}
			fs = append(fs, True, False, fs[0]) // constants and a repeat
			dst := New(tc.cfg)
			if tc.target != nil {
				tc.target(dst)
			}
			got, err := dst.Transfer(w.m, fs, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				dst.Keep(got[i])
			}
			dst.GC()
			if got[len(got)-1] != got[0] {
				t.Errorf("a repeated source gives %d and %d", got[0], got[len(got)-1])
			}
			for i, f := range fs {
				for a := 0; a < 1<<nv; a++ {
					want := evalAt(w.m, f, a)
					// The target assignment that gives source variable v
					// the value of bit v of a.
					tv := map[int]bool{}
					for v := 0; v < nv; v++ {
						tv[tc.vars[v]] = a>>v&1 != 0
					}
					if g := evalVars(dst, got[i], func(v int) bool { return tv[v] }); g != want {
						t.Fatalf("root %d at %b: %v, want %v", i, a, g, want)
					}
				}
				if dst.NodeCount(got[i]) != w.m.NodeCount(f) && tc.target == nil && slices.Equal(tc.vars, seq(nv)) {
					t.Errorf("root %d: %d nodes, the source %d", i, dst.NodeCount(got[i]), w.m.NodeCount(f))
				}
			}
		})
	}
}

func TestTransferIntoItself(t *testing.T) {
	// A renaming that swaps two variables, which Replace's pairs do only
	// when the order allows it.
	m := New(Config{InitialNodes: 64})
	f := m.And(m.Ithvar(0), m.NIthvar(1))
	got, err := m.Transfer(m, []Node{f}, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := m.And(m.Ithvar(1), m.NIthvar(0)); got[0] != want {
		t.Fatalf("got %d, want %d", got[0], want)
	}
}

func TestTransferRejects(t *testing.T) {
	src := New(Config{})
	f := src.And(src.Ithvar(0), src.Ithvar(2))
	tests := []struct {
		name string
		fs   []Node
		vars []int
	}{
		{"a variable beyond the map", []Node{f}, []int{0, 1}},
		{"an unmapped variable", []Node{f}, []int{0, 1, -1}},
		{"an Invalid node", []Node{Invalid}, []int{0, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := New(Config{})
			if _, err := dst.Transfer(src, tc.fs, tc.vars); err == nil {
				t.Fatal("no error")
			}
			if dst.Err() != nil {
				t.Fatalf("the target holds an error: %v", dst.Err())
			}
		})
	}
	// The node limit of the target is its sticky error.
	long := True
	for v := 199; v >= 0; v-- {
		long = src.And(src.Ithvar(v), long)
	}
	dst := New(Config{InitialNodes: 64, MaxNodes: 64})
	if _, err := dst.Transfer(src, []Node{long}, seq(200)); err != ErrNodeLimit {
		t.Fatalf("error %v, want ErrNodeLimit", err)
	}
}
