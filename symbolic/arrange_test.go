package symbolic

import (
	"fmt"
	"math/rand/v2"
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
