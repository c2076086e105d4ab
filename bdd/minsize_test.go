package bdd

import (
	"math/rand"
	"testing"
)

// fromTable builds the function of truth table tt (bit i: vars[j] = bit j
// of i) in m.
func fromTable(m *Manager, tt []uint64, vars []int) Node {
	f := False
	for i := 0; i < 1<<len(vars); i++ {
		if tt[i/64]>>(i%64)&1 == 0 {
			continue
		}
		vals := make([]bool, len(vars))
		for j := range vars {
			vals[j] = i>>j&1 == 1
		}
		f = m.Or(f, m.Assignment(vars, vals))
	}
	return f
}

// permutations calls fn with every permutation of 0..n-1.
func permutations(n int, fn func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			fn(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// TestMinSize compares MinSize with the least node count over every
// order, built one by one, on random functions of up to 5 variables and
// on x1∧y1 ∨ x2∧y2 ∨ x3∧y3 (6 nodes interleaved, 14 with the x first);
// and checks that a cofactor's minimum is at most the function's.
func TestMinSize(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 60; trial++ {
		n := 1 + trial%5
		tt := []uint64{rng.Uint64() & (1<<(1<<n) - 1)}
		if n == 6 {
			tt[0] = rng.Uint64()
		}
		vars := make([]int, n)
		for i := range vars {
			vars[i] = i
		}
		want := -1
		permutations(n, func(p []int) {
			m := New(Config{InitialNodes: 256})
			m.ExtVarNum(n)
			// Variable j of the table is the p[j]-th from the top.
			c := m.NodeCount(fromTable(m, tt, p))
			if want < 0 || c < want {
				want = c
			}
		})
		m := New(Config{InitialNodes: 256})
		m.ExtVarNum(n)
		f := fromTable(m, tt, vars)
		got, err := m.MinSize(f, vars)
		if err != nil || got != want {
			t.Fatalf("table %x over %d variables: MinSize %d (%v), want %d", tt, n, got, err, want)
		}
		if n > 1 {
			cof := m.Exists(m.And(f, m.NIthvar(0)), m.VarSet(0))
			c, err := m.MinSize(cof, vars[1:])
			if err != nil || c > got {
				t.Errorf("table %x: the cofactor's minimum %d (%v) exceeds the function's %d", tt, c, err, got)
			}
		}
	}
	m := New(Config{InitialNodes: 256})
	m.ExtVarNum(6)
	f := False
	for i := 0; i < 3; i++ {
		f = m.Or(f, m.And(m.Ithvar(i), m.Ithvar(3+i)))
	}
	if got, err := m.MinSize(f, []int{0, 1, 2, 3, 4, 5}); err != nil || got != 6 || m.NodeCount(f) != 14 {
		t.Errorf("pairs: MinSize %d (%v), node count %d; want 6 and 14", got, err, m.NodeCount(f))
	}
	if _, err := m.MinSize(f, []int{0, 1, 2}); err == nil {
		t.Errorf("MinSize over too few variables: no error")
	}
}
