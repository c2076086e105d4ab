package symbolic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// arrangeReference is the greedy arrangement written the direct way: at
// every step, score every unplaced slot from the last 8 placed ones and
// take the best (ties: the lowest slot; the heaviest slot first when
// nothing scores). Quadratic: a reference for arrange.
func arrangeReference(adj [][]affinity, total []int) []int {
	n := len(adj)
	placed := make([]bool, n)
	score := make([]float64, n)
	order := make([]int, 0, n)
	for len(order) < n {
		clear(score)
		for d := 0; d < 8 && d < len(order); d++ {
			for _, e := range adj[order[len(order)-1-d]] {
				score[e.to] += float64(e.w) / float64(d+1)
			}
		}
		best := -1
		for s := 0; s < n; s++ {
			if placed[s] {
				continue
			}
			if best < 0 || score[s] > score[best] ||
				score[s] == score[best] && score[s] == 0 && total[s] > total[best] && len(order) == 0 {
				best = s
			}
		}
		placed[best] = true
		order = append(order, best)
	}
	return order
}

// TestArrange compares arrange with the reference on random affinity
// graphs, sparse and dense, with and without isolated slots.
func TestArrange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 500; i++ {
		n := 1 + r.IntN(40)
		density := r.Float64()
		w := map[[2]int]int{}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if r.Float64() < density*density {
					w[[2]int{a, b}] = 1 + r.IntN(4)
				}
			}
		}
		adj, total := affinityGraph(n, w)
		got, want := arrange(adj, total), arrangeReference(adj, total)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("graph %d (%d slots): arrange %v, reference %v", i, n, got, want)
		}
	}
}

// span is the total span of the statements edges under order: the
// quantity force minimises.
func span(n int, edges [][]int, order []int) int {
	pos := make([]int, n)
	for i, s := range order {
		pos[s] = i
	}
	total := 0
	for _, e := range edges {
		lo, hi := n, -1
		for _, s := range e {
			lo, hi = min(lo, pos[s]), max(hi, pos[s])
		}
		total += hi - lo
	}
	return total
}

// TestForce checks FORCE placement on random statement sets: the result
// is a permutation of the slots, its span is never above the starting
// arrangement's, and on a chain of statements scrambled by the start it
// at least halves the span (a local search: it need not find the chain's
// own order).
func TestForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		n := 1 + r.IntN(40)
		var edges [][]int
		for k := r.IntN(3 * n); k > 0; k-- {
			e := r.Perm(n)[:min(n, 2+r.IntN(4))]
			slices.Sort(e)
			if len(e) >= 2 {
				edges = append(edges, e)
			}
		}
		start := r.Perm(n)
		got := force(n, edges, start)
		sorted := slices.Clone(got)
		slices.Sort(sorted)
		if len(got) != n || slices.IndexFunc(sorted, func(s int) bool { return sorted[s] != s }) >= 0 {
			t.Fatalf("case %d: %v is not a permutation of %d slots", i, got, n)
		}
		if a, b := span(n, edges, got), span(n, edges, start); a > b {
			t.Fatalf("case %d: span %d after FORCE, %d before", i, a, b)
		}
	}
	const n = 30
	var chain [][]int
	for s := 0; s+1 < n; s++ {
		chain = append(chain, []int{s, s + 1})
	}
	start := rand.New(rand.NewPCG(7, 8)).Perm(n)
	got := force(n, chain, start)
	if sp := span(n, chain, got); 2*sp > span(n, chain, start) {
		t.Errorf("chain: span %d after FORCE, %d before (%v)", sp, span(n, chain, start), got)
	}
}
