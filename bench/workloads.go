package bench

// NQueens builds the n-queens constraint (one variable per square, row-major
// order, as in BuDDy's example) and returns the number of solutions and the
// node count of the result.
func NQueens[N comparable](e Engine[N], n int) (float64, int) {
	queen := NQueensNode(e, n)
	all := make([]int, n*n)
	for i := range all {
		all[i] = i
	}
	s := e.MakeSet(all)
	c := e.SatCount(queen, s)
	nodes := e.NodeCount(queen)
	e.Release(queen)
	return c, nodes
}

// MilnerVars is the number of variables of Milner's scheduler with n
// cyclers: c, t, h per cycler, each with a current and a next copy,
// interleaved (cur, next) and cycler after cycler.
func MilnerVars(n int) int { return 6 * n }

// Milner computes the reachable states of a Milner-style scheduler of n
// cyclers by breadth-first image computation with a monolithic transition
// relation: each step is one AndExists over the current variables and one
// Replace next→current. Cycler i holds c_i (token), t_i (task running),
// h_i (token to pass). Transitions: start (c∧¬t → ¬c' t' h'), pass
// (h_i ∧ ¬c_{i+1} → ¬h_i' c_{i+1}'), end (t → ¬t'); all other variables
// unchanged. It returns the number of reachable states, the number of
// iterations and the node count of the reachable set.
func Milner[N comparable](e Engine[N], n int) (float64, int, int) {
	cur := func(i, k int) int { return 6*i + 2*k }
	nxt := func(i, k int) int { return 6*i + 2*k + 1 }
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
	trans := MilnerRelation(e, n, false)
	// initial state: token at cycler 0, everything else false
	init := e.True()
	var curVars, from, to []int
	for i := n - 1; i >= 0; i-- {
		for k := H; k >= C; k-- {
			init = conj(init, lit(cur(i, k), i == 0 && k == C))
		}
	}
	for i := 0; i < n; i++ {
		for k := C; k <= H; k++ {
			curVars = append(curVars, cur(i, k))
			from = append(from, nxt(i, k))
			to = append(to, cur(i, k))
		}
	}
	curSet := e.MakeSet(curVars)
	toCur := e.MakePairs(from, to)
	reach := init
	iters := 0
	for {
		iters++
		img := e.AndExists(reach, trans, curSet)
		img2 := e.Replace(img, toCur)
		e.Release(img)
		next := e.Or(reach, img2)
		e.Release(img2)
		if e.Equal(next, reach) {
			e.Release(next)
			break
		}
		e.Release(reach)
		reach = next
	}
	count := e.SatCount(reach, curSet)
	nodes := e.NodeCount(reach)
	e.Release(reach)
	e.Release(trans)
	return count, iters, nodes
}

// RenameFunc builds the function renamed by the renaming workload:
// (x0 ∧ x1) ∨ (x2 ⊕ x3), a BDD over 4 variables.
func RenameFunc[N comparable](e Engine[N]) N {
	a, b, c, d := e.Ithvar(0), e.Ithvar(1), e.Ithvar(2), e.Ithvar(3)
	ab, cd := e.And(a, b), e.Xor(c, d)
	f := e.Or(ab, cd)
	for _, x := range []N{a, b, c, d, ab, cd} {
		e.Release(x)
	}
	return f
}

// RenameFrom and RenameTo are the renaming of the renaming workload: the
// 4 variables onto 4 others, in a manager of at least 10 variables.
var (
	RenameFrom = []int{0, 1, 2, 3}
	RenameTo   = []int{6, 7, 8, 9}
)
