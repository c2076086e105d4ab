package bench

import (
	"fmt"
	"time"
)

// Sifting on the same BDDs: each SiftCase builds its BDDs through the
// Engine interface (so both packages hold exactly the same diagrams under
// the same initial order, variable i at level i, no blocks), then each
// package sifts once (ours: Manager.Reorder with the default growth bound
// and no time limit; BuDDy: bdd_reorder(BDD_REORDER_SIFT) with every
// variable its own block), and the live nodes before and after and the
// time of the reordering alone are compared.

// SiftCases are the sifting comparisons: functions with a bad initial
// order (so sifting has much to gain) and n-queens (row-major, where it
// has almost nothing to gain).
var SiftCases = []SiftCase{
	{"pairs 12 (x_i∧y_i, x before y)", "pairs", 12, 24},
	{"pairs 16 (x_i∧y_i, x before y)", "pairs", 16, 32},
	{"milner 5 relation, cur before next", "milner", 5, 30},
	{"milner 6 relation, cur before next", "milner", 6, 36},
	{"nqueens 8", "nqueens", 8, 64},
	{"nqueens 9", "nqueens", 9, 81},
}

// SiftCase is one sifting comparison: a workload kind, its size and its
// number of variables.
type SiftCase struct {
	Name string
	Kind string // pairs, milner or nqueens
	N    int
	Vars int
}

// SiftBuild builds the BDDs of case c in e and returns them (owned).
func SiftBuild[N comparable](e Engine[N], c SiftCase) []N {
	switch c.Kind {
	case "pairs":
		return []N{PairsFunc(e, c.N)}
	case "milner":
		return []N{MilnerRelation(e, c.N, true)}
	case "nqueens":
		return []N{NQueensNode(e, c.N)}
	}
	panic(fmt.Sprintf("bench: unknown sifting case %q", c.Name))
}

// SiftResult is the outcome of one sifting.
type SiftResult struct {
	Before, After int
	Time          time.Duration
}

// PairsFunc is ∨_i (x_i ∧ y_i) with x_i = i and y_i = n+i: exponential
// in n under this order, linear when each x_i is next to its y_i.
func PairsFunc[N comparable](e Engine[N], n int) N {
	f := e.False()
	for i := 0; i < n; i++ {
		a, b := e.Ithvar(i), e.Ithvar(n+i)
		ab := e.And(a, b)
		r := e.Or(f, ab)
		for _, x := range []N{a, b, ab, f} {
			e.Release(x)
		}
		f = r
	}
	return f
}

// MilnerRelation is the transition relation of Milner's scheduler of n
// cyclers (see Milner); split places every current variable before every
// next one (3i+k and 3n+3i+k), which makes the frame conditions x' ↔ x
// exponential until sifting brings each pair together.
func MilnerRelation[N comparable](e Engine[N], n int, split bool) N {
	cur := func(i, k int) int { return 6*i + 2*k }
	nxt := func(i, k int) int { return 6*i + 2*k + 1 }
	if split {
		cur = func(i, k int) int { return 3*i + k }
		nxt = func(i, k int) int { return 3*n + 3*i + k }
	}
	const C, T, H = 0, 1, 2
	lit := func(v int, pos bool) N {
		if pos {
			return e.Ithvar(v)
		}
		return e.NIthvar(v)
	}
	conj := func(acc, f N) N {
		r := e.And(acc, f)
		e.Release(acc)
		e.Release(f)
		return r
	}
	unchanged := func(except map[[2]int]bool) N {
		r := e.True()
		for i := n - 1; i >= 0; i-- {
			for k := H; k >= C; k-- {
				if except[[2]int{i, k}] {
					continue
				}
				a, b := e.Ithvar(cur(i, k)), e.Ithvar(nxt(i, k))
				eq := e.Equiv(a, b)
				e.Release(a)
				e.Release(b)
				r = conj(r, eq)
			}
		}
		return r
	}
	trans := e.False()
	add := func(local N, except map[[2]int]bool) {
		t := conj(local, unchanged(except))
		r := e.Or(trans, t)
		e.Release(trans)
		e.Release(t)
		trans = r
	}
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		add(conj(conj(conj(conj(lit(cur(i, C), true), lit(cur(i, T), false)), lit(nxt(i, C), false)), lit(nxt(i, T), true)), lit(nxt(i, H), true)),
			map[[2]int]bool{{i, C}: true, {i, T}: true, {i, H}: true})
		add(conj(conj(conj(lit(cur(i, H), true), lit(cur(j, C), false)), lit(nxt(i, H), false)), lit(nxt(j, C), true)),
			map[[2]int]bool{{i, H}: true, {j, C}: true})
		add(conj(lit(cur(i, T), true), lit(nxt(i, T), false)), map[[2]int]bool{{i, T}: true})
	}
	return trans
}

// NQueensNode builds the n-queens constraint (one variable per square,
// row-major order, as in BuDDy's example: a queen in each row, and a queen
// on (i,j) excludes its row, column and diagonals) and returns it (owned).
// NQueens counts its solutions; the sifting workloads reorder it.
func NQueensNode[N comparable](e Engine[N], n int) N {
	x := func(i, j int) int { return i*n + j }
	queen := e.True()
	conj := func(acc, f N) N {
		r := e.And(acc, f)
		e.Release(acc)
		e.Release(f)
		return r
	}
	for i := 0; i < n; i++ {
		row := e.False()
		for j := 0; j < n; j++ {
			v := e.Ithvar(x(i, j))
			r := e.Or(row, v)
			e.Release(row)
			e.Release(v)
			row = r
		}
		queen = conj(queen, row)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a := e.True()
			for k := 0; k < n; k++ {
				if k != j {
					a = conj(a, e.NIthvar(x(i, k)))
				}
				if k != i {
					a = conj(a, e.NIthvar(x(k, j)))
				}
				if d := j + k - i; k != i && d >= 0 && d < n {
					a = conj(a, e.NIthvar(x(k, d)))
				}
				if d := j + i - k; k != i && d >= 0 && d < n {
					a = conj(a, e.NIthvar(x(k, d)))
				}
			}
			v := e.NIthvar(x(i, j))
			imp := e.Or(v, a)
			e.Release(v)
			e.Release(a)
			queen = conj(queen, imp)
		}
	}
	return queen
}

// Sift sifts every live BDD of o once and reports the live nodes before
// and after and the time of the reordering.
func (o *Ours) Sift() SiftResult {
	o.M.GC()
	before := o.M.Stats().Nodes
	start := time.Now()
	o.M.Reorder()
	d := time.Since(start)
	o.M.GC()
	return SiftResult{Before: before, After: o.M.Stats().Nodes, Time: d}
}
