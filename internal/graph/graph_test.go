package graph

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

func TestSCC(t *testing.T) {
	tests := []struct {
		name  string
		succ  [][]int
		roots []int
		want  [][]int
	}{
		{"empty", nil, nil, nil},
		{"one vertex", [][]int{nil}, nil, [][]int{{0}}},
		{"self loop", [][]int{{0}}, nil, [][]int{{0}}},
		{"chain, callees first", [][]int{{1}, {2}, nil}, nil, [][]int{{2}, {1}, {0}}},
		{"cycle, root last", [][]int{{1}, {2}, {0}}, nil, [][]int{{2, 1, 0}}},
		{"two cycles joined", [][]int{{1}, {0, 2}, {3}, {2}}, nil, [][]int{{3, 2}, {1, 0}}},
		{"roots reversed", [][]int{nil, nil, {0}}, []int{2, 1, 0}, [][]int{{0}, {2}, {1}}},
		{"successor order", [][]int{{2, 1}, nil, nil}, nil, [][]int{{2}, {1}, {0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SCC(tt.succ, tt.roots); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("SCC = %v, want %v", got, tt.want)
			}
		})
	}
}

// reach is the set of vertices reachable from v (v included).
func reach(succ [][]int, v int) []bool {
	seen := make([]bool, len(succ))
	stack := []int{v}
	seen[v] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range succ[u] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// TestSCCRandom checks the components of random graphs against mutual
// reachability, and their order (every edge leads to the same or an
// earlier component).
func TestSCCRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 200 {
		n := 1 + r.Intn(12)
		succ := make([][]int, n)
		for v := range succ {
			for range r.Intn(3) {
				succ[v] = append(succ[v], r.Intn(n))
			}
		}
		comps := SCC(succ, nil)
		of := make([]int, n)
		count := 0
		for i, c := range comps {
			for _, v := range c {
				of[v] = i
				count++
			}
		}
		if count != n {
			t.Fatalf("%v: %d vertices in the components %v", succ, count, comps)
		}
		reaches := make([][]bool, n)
		for v := range n {
			reaches[v] = reach(succ, v)
		}
		for u := range n {
			for v := range n {
				if same := reaches[u][v] && reaches[v][u]; same != (of[u] == of[v]) {
					t.Fatalf("%v: %d and %d mutually reachable %v, same component %v (%v)", succ, u, v, same, of[u] == of[v], comps)
				}
			}
			for _, w := range succ[u] {
				if of[w] > of[u] {
					t.Fatalf("%v: edge %d→%d leads to a later component (%v)", succ, u, w, comps)
				}
			}
		}
	}
}

func TestPostorder(t *testing.T) {
	tests := []struct {
		name string
		succ [][]int
		root int
		want []int
	}{
		{"one vertex", [][]int{nil}, 0, []int{0}},
		{"diamond", [][]int{{1, 2}, {3}, {3}, nil}, 0, []int{3, 1, 2, 0}},
		{"loop", [][]int{{1}, {0, 2}, nil}, 0, []int{2, 1, 0}},
		{"unreachable left out", [][]int{{1}, nil, {0}}, 0, []int{1, 0}},
		{"from another root", [][]int{{1}, nil, {0}}, 2, []int{1, 0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Postorder(tt.succ, tt.root); !slices.Equal(got, tt.want) {
				t.Errorf("Postorder = %v, want %v", got, tt.want)
			}
		})
	}
}
