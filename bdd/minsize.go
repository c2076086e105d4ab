package bdd

import (
	"fmt"
	"math/bits"
	"slices"
)

// MaxMinSizeVars is the most variables MinSize accepts: its cost grows
// as 3^n (the subsets of the variables and the values of each).
const MaxMinSizeVars = 16

// MinSize returns the least number of internal nodes of a BDD of f over
// every order of the variables vars, by Friedman and Supowit's dynamic
// programme ("Finding the optimal variable ordering for binary decision
// diagrams", 1990): the nodes labelled x when the variables of a set T
// are above x are the distinct subfunctions of f under the assignments to
// T that depend on x, so the best cost of placing a set T at the top is
// the least, over its last variable x, of the best cost of T\{x} plus
// that count. f may depend only on variables of vars (at most
// MaxMinSizeVars); the cost is about 3^len(vars) small steps, and a
// truth table per distinct subfunction (an error past 128 MiB of them).
//
// The minimum of a cofactor of f (f with some variables fixed to
// constants) is at most the minimum of f: under any order, the nodes of
// the cofactor at a level are images of distinct nodes of f at that
// level (a subfunction of the cofactor that depends on the level's
// variable is the cofactor of a subfunction of f that does). So MinSize of
// a cofactor over at most MaxMinSizeVars free variables is a sound lower
// bound on the size of f's BDD under every order, for BDDs far too wide
// for MinSize itself.
func (m *Manager) MinSize(f Node, vars []int) (int, error) {
	n := len(vars)
	if n > MaxMinSizeVars {
		return 0, fmt.Errorf("bdd: MinSize of %d variables (at most %d)", n, MaxMinSizeVars)
	}
	if m.err != nil || !m.valid(f) {
		return 0, fmt.Errorf("bdd: MinSize of an invalid BDD")
	}
	pos := make(map[int32]int, n) // level → index in vars
	for i, v := range vars {
		m.needVar(v)
		pos[m.var2level[v]] = i
	}
	bad := false
	m.visit([]Node{f}, func(_ Node, nd *node) {
		if _, ok := pos[nd.level]; !ok {
			bad = true
		}
	})
	if bad {
		return 0, fmt.Errorf("bdd: MinSize: the function depends on a variable outside the set")
	}
	// The truth table: bit i holds f under vars[j] = bit j of i.
	words := max(1, (1<<n)/64)
	tt := make([]uint64, words)
	for i := 0; i < 1<<n; i++ {
		g := f
		for g >= 2 {
			nd := &m.nodes[g]
			if i>>pos[nd.level]&1 == 1 {
				g = nd.high
			} else {
				g = nd.low
			}
		}
		if g == True {
			tt[i/64] |= 1 << (i % 64)
		}
	}
	return minSizeTable(tt, n)
}

// maxMinSizeWords bounds the memory of MinSize's truth tables (in 64-bit
// words: 128 MiB): a function with very many distinct subfunctions (a
// random one of 16 variables) gets an error rather than the memory.
const maxMinSizeWords = 1 << 24

// minSizeTable is MinSize on a truth table of n variables.
func minSizeTable(tt []uint64, n int) (int, error) {
	fs := &funcs{n: n, ids: make(map[uint64][]int32), cof: make(map[int64]int32)}
	root := fs.id(tt)
	full := 1<<n - 1
	// sub[T]: the distinct subfunctions under the assignments to T.
	sub := make([][]int32, 1<<n)
	sub[0] = []int32{root}
	best := make([]int, 1<<n)
	for t := 1; t <= full; t++ {
		y := bits.TrailingZeros(uint(t))
		prev := sub[t&^(1<<y)]
		s := make([]int32, 0, 2*len(prev))
		for _, g := range prev {
			s = append(s, fs.cofactor(g, y, 0), fs.cofactor(g, y, 1))
		}
		slices.Sort(s)
		sub[t] = slices.Compact(s)
		if len(fs.tables)*len(tt) > maxMinSizeWords {
			return 0, fmt.Errorf("bdd: MinSize: more than %d distinct subfunctions", len(fs.tables))
		}
	}
	for t := 1; t <= full; t++ {
		b := -1
		for r := t; r != 0; r &= r - 1 {
			x := bits.TrailingZeros(uint(r))
			above := t &^ (1 << x)
			c := best[above]
			for _, g := range sub[above] {
				if fs.cofactor(g, x, 0) != fs.cofactor(g, x, 1) {
					c++
				}
			}
			if b < 0 || c < b {
				b = c
			}
		}
		best[t] = b
	}
	return best[full], nil
}

// funcs numbers the distinct truth tables of a MinSize run and memoizes
// their cofactors.
type funcs struct {
	n      int
	tables [][]uint64
	ids    map[uint64][]int32 // by hash
	cof    map[int64]int32
}

// id returns the number of truth table t (kept if new).
func (fs *funcs) id(t []uint64) int32 {
	h := uint64(14695981039346656037)
	for _, w := range t {
		h = (h ^ w) * 1099511628211
	}
	for _, id := range fs.ids[h] {
		if slices.Equal(fs.tables[id], t) {
			return id
		}
	}
	id := int32(len(fs.tables))
	fs.tables = append(fs.tables, t)
	fs.ids[h] = append(fs.ids[h], id)
	return id
}

// cofactor returns the number of the table of g with variable j fixed to
// b (as a table over all n variables that no longer depends on j).
func (fs *funcs) cofactor(g int32, j int, b uint64) int32 {
	k := int64(g)<<6 | int64(j)<<1 | int64(b)
	if id, ok := fs.cof[k]; ok {
		return id
	}
	src := fs.tables[g]
	t := make([]uint64, len(src))
	for i := 0; i < 1<<fs.n; i++ {
		from := i&^(1<<j) | int(b)<<j
		if src[from/64]>>(from%64)&1 == 1 {
			t[i/64] |= 1 << (i % 64)
		}
	}
	id := fs.id(t)
	fs.cof[k] = id
	return id
}
