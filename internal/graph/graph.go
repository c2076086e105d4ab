// Package graph holds the graph algorithms that several packages run on
// graphs of small integers given by successor lists (a call graph, the
// dependencies of a formula's relations, a pushdown system's procedures,
// a procedure's locations): strongly connected components and a
// depth-first postorder. Both walk with an explicit stack, since a chain
// of calls or of locations may be deeper than recursion should go, and
// both follow the successor lists in their order, so that their results
// are determined by the graph as given.
package graph

// SCC returns the strongly connected components of the graph whose vertex
// v has the successors succ[v] (Tarjan's algorithm). The depth-first
// search starts from the vertices of roots in that order (nil: 0, 1, …,
// n-1); roots must list every vertex. The components come in the order
// the search completes them, each after every component it reaches
// (reverse topological order), and the vertices of a component in the
// order they leave the stack: its root, where the search entered it,
// last.
func SCC(succ [][]int, roots []int) [][]int {
	n := len(succ)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	type frame struct{ v, next int }
	var calls []frame
	next := 0
	visit := func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v, 0})
	}
	search := func(root int) {
		if index[root] >= 0 {
			return
		}
		visit(root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next < len(succ[v]) {
				w := succ[v][f.next]
				f.next++
				if index[w] < 0 {
					visit(w)
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				out = append(out, comp)
			}
		}
	}
	if roots == nil {
		for v := range n {
			search(v)
		}
	} else {
		for _, v := range roots {
			search(v)
		}
	}
	return out
}

// Postorder returns the vertices reachable from root in the postorder of
// a depth-first search that follows the successor lists in order (each
// vertex after all the vertices first reached through it). Its reverse,
// the reverse postorder, puts every vertex before its successors except
// along the edges that close a cycle.
func Postorder(succ [][]int, root int) []int {
	seen := make([]bool, len(succ))
	var post []int
	type frame struct{ v, next int }
	stack := []frame{{root, 0}}
	seen[root] = true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(succ[f.v]) {
			w := succ[f.v][f.next]
			f.next++
			if !seen[w] {
				seen[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		post = append(post, f.v)
		stack = stack[:len(stack)-1]
	}
	return post
}
